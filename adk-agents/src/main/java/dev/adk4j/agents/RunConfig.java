package dev.adk4j.agents;

/**
 * How an invocation runs. Immutable; {@link #builder()} gives the defaults: no streaming, at most
 * 500 model calls, no automatic session creation.
 */
public final class RunConfig {

  /** Whether model output is streamed as partial events. */
  public enum StreamingMode {
    /** One complete event per model response. */
    NONE,
    /** Partial events as text arrives (server-sent events), then the complete event. */
    SSE
  }

  private final StreamingMode streamingMode;
  private final int maxLlmCalls;
  private final boolean autoCreateSession;

  private RunConfig(Builder b) {
    this.streamingMode = b.streamingMode;
    this.maxLlmCalls = b.maxLlmCalls;
    this.autoCreateSession = b.autoCreateSession;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder()
        .streamingMode(streamingMode)
        .maxLlmCalls(maxLlmCalls)
        .autoCreateSession(autoCreateSession);
  }

  public StreamingMode streamingMode() {
    return streamingMode;
  }

  /** The most model calls one invocation may make; 0 or less means no limit. */
  public int maxLlmCalls() {
    return maxLlmCalls;
  }

  /** Whether the Runner creates a missing session instead of failing. */
  public boolean autoCreateSession() {
    return autoCreateSession;
  }

  @Override
  public String toString() {
    return "RunConfig{streamingMode="
        + streamingMode
        + ", maxLlmCalls="
        + maxLlmCalls
        + ", autoCreateSession="
        + autoCreateSession
        + "}";
  }

  /** Builds a {@link RunConfig}. */
  public static final class Builder {
    private StreamingMode streamingMode = StreamingMode.NONE;
    private int maxLlmCalls = 500;
    private boolean autoCreateSession;

    private Builder() {}

    public Builder streamingMode(StreamingMode streamingMode) {
      this.streamingMode = java.util.Objects.requireNonNull(streamingMode, "streamingMode");
      return this;
    }

    /** The most model calls one invocation may make; 0 or less means no limit. */
    public Builder maxLlmCalls(int maxLlmCalls) {
      this.maxLlmCalls = maxLlmCalls;
      return this;
    }

    public Builder autoCreateSession(boolean autoCreateSession) {
      this.autoCreateSession = autoCreateSession;
      return this;
    }

    public RunConfig build() {
      return new RunConfig(this);
    }
  }
}
