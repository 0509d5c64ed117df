package dev.adk4j.agents;

import com.google.genai.types.Blob;
import com.google.genai.types.Content;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One item of a {@link LiveRequestQueue}: a content (a user turn the model answers), a blob of
 * realtime input (a chunk of audio, an image), or the request to close the live run. Immutable.
 */
public final class LiveRequest {
  private final @Nullable Content content;
  private final @Nullable Blob blob;
  private final @Nullable Boolean close;

  private LiveRequest(Builder b) {
    this.content = b.content;
    this.blob = b.blob;
    this.close = b.close;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder().content(content).blob(blob).close(close);
  }

  /** The content to send as a user turn, if any. */
  public Optional<Content> content() {
    return Optional.ofNullable(content);
  }

  /** The realtime input to send, if any. */
  public Optional<Blob> blob() {
    return Optional.ofNullable(blob);
  }

  /** Whether this request closes the live run, if said. */
  public Optional<Boolean> close() {
    return Optional.ofNullable(close);
  }

  /** Whether this request closes the live run. */
  public boolean shouldClose() {
    return close != null && close;
  }

  @Override
  public String toString() {
    return "LiveRequest{"
        + (content != null ? "content" : "")
        + (blob != null ? "blob " + blob.mimeType().orElse("") : "")
        + (shouldClose() ? "close" : "")
        + "}";
  }

  /** Builds a {@link LiveRequest}. */
  public static final class Builder {
    private @Nullable Content content;
    private @Nullable Blob blob;
    private @Nullable Boolean close;

    private Builder() {}

    public Builder content(@Nullable Content content) {
      this.content = content;
      return this;
    }

    public Builder blob(@Nullable Blob blob) {
      this.blob = blob;
      return this;
    }

    public Builder close(@Nullable Boolean close) {
      this.close = close;
      return this;
    }

    public LiveRequest build() {
      return new LiveRequest(this);
    }
  }
}
