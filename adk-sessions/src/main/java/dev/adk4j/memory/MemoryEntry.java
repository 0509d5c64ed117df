package dev.adk4j.memory;

import com.google.genai.types.Content;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One memory: the content of a past event, who wrote it and when. Immutable.
 *
 * <p>{@link #timestamp()} is a string because it is shown to the model as it is: the services write
 * the event's time in ISO 8601 ({@code 2026-11-23T17:02:11.120Z}).
 */
public final class MemoryEntry {

  private final Content content;
  private final @Nullable String author;
  private final @Nullable String timestamp;

  private MemoryEntry(Builder b) {
    this.content = Objects.requireNonNull(b.content, "MemoryEntry needs a content");
    this.author = b.author;
    this.timestamp = b.timestamp;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this entry's values. */
  public Builder toBuilder() {
    return new Builder().content(content).author(author).timestamp(timestamp);
  }

  /** The content remembered: the event's content as it was stored. */
  public Content content() {
    return content;
  }

  /** The event's author ({@code user} or an agent's name), or null if it had none. */
  public @Nullable String author() {
    return author;
  }

  /** When the event happened, in ISO 8601, or null if unknown. */
  public @Nullable String timestamp() {
    return timestamp;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MemoryEntry e
        && content.equals(e.content)
        && Objects.equals(author, e.author)
        && Objects.equals(timestamp, e.timestamp);
  }

  @Override
  public int hashCode() {
    return Objects.hash(content, author, timestamp);
  }

  @Override
  public String toString() {
    return "MemoryEntry{author="
        + author
        + ", timestamp="
        + timestamp
        + ", text="
        + MemoryText.textOf(content)
        + "}";
  }

  /** Builds a {@link MemoryEntry}; the content is required. Not thread-safe. */
  public static final class Builder {
    private @Nullable Content content;
    private @Nullable String author;
    private @Nullable String timestamp;

    private Builder() {}

    public Builder content(Content content) {
      this.content = Objects.requireNonNull(content, "content");
      return this;
    }

    public Builder author(@Nullable String author) {
      this.author = author;
      return this;
    }

    public Builder timestamp(@Nullable String timestamp) {
      this.timestamp = timestamp;
      return this;
    }

    /** Sets the timestamp to {@code instant} in ISO 8601. */
    public Builder timestamp(Instant instant) {
      return timestamp(instant.toString());
    }

    /**
     * @throws NullPointerException if no content was set
     */
    public MemoryEntry build() {
      return new MemoryEntry(this);
    }
  }
}
