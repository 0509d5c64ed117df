package dev.adk4j.agents;

/**
 * How an invocation runs. Immutable; {@link #builder()} gives the defaults: no streaming, at most
 * 500 model calls, no automatic session creation, no retry of tool calls on a state conflict, a
 * wait of at most 2 minutes for a session that another invocation is running, and at most 5 minutes
 * for each response of a model call.
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
  private final int stateConflictRetries;
  private final java.time.Duration maxSessionWait;
  private final java.time.Duration llmCallTimeout;

  private RunConfig(Builder b) {
    this.streamingMode = b.streamingMode;
    this.maxLlmCalls = b.maxLlmCalls;
    this.autoCreateSession = b.autoCreateSession;
    this.stateConflictRetries = b.stateConflictRetries;
    this.maxSessionWait = b.maxSessionWait;
    this.llmCallTimeout = b.llmCallTimeout;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from {@code config}'s settings; the same as {@code config.toBuilder()}. */
  public static Builder builder(RunConfig config) {
    return config.toBuilder();
  }

  public Builder toBuilder() {
    return new Builder()
        .streamingMode(streamingMode)
        .maxLlmCalls(maxLlmCalls)
        .autoCreateSession(autoCreateSession)
        .stateConflictRetries(stateConflictRetries)
        .maxSessionWait(maxSessionWait)
        .llmCallTimeout(llmCallTimeout);
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

  /**
   * How many times the tool calls of one step are run again when storing their results fails with a
   * state conflict ({@code StateConflictException}: a key they read and wrote was changed by
   * another session or instance meanwhile). 0, the default, ends the invocation with the conflict.
   * Before each retry the tools' writes are dropped and the stored state re-read, so tools must be
   * safe to run again.
   */
  public int stateConflictRetries() {
    return stateConflictRetries;
  }

  /**
   * How long an invocation waits for its session while another invocation (in this process or
   * another sharing the store) runs on it, before failing with {@code SessionBusyException}.
   */
  public java.time.Duration maxSessionWait() {
    return maxSessionWait;
  }

  /**
   * How long a model call may go without producing a response: the wait for its first response and,
   * when streaming, between two responses. When it passes, the call is abandoned (its subscription
   * cancelled) and the invocation ends with an {@code LlmException} saying so, as for any other
   * model failure. {@link java.time.Duration#ZERO} waits for ever. Default 5 minutes.
   */
  public java.time.Duration llmCallTimeout() {
    return llmCallTimeout;
  }

  @Override
  public String toString() {
    return "RunConfig{streamingMode="
        + streamingMode
        + ", maxLlmCalls="
        + maxLlmCalls
        + ", autoCreateSession="
        + autoCreateSession
        + ", stateConflictRetries="
        + stateConflictRetries
        + ", maxSessionWait="
        + maxSessionWait
        + ", llmCallTimeout="
        + llmCallTimeout
        + "}";
  }

  /** Builds a {@link RunConfig}. */
  public static final class Builder {
    private StreamingMode streamingMode = StreamingMode.NONE;
    private int maxLlmCalls = 500;
    private boolean autoCreateSession;
    private int stateConflictRetries;
    private java.time.Duration maxSessionWait = java.time.Duration.ofMinutes(2);
    private java.time.Duration llmCallTimeout = java.time.Duration.ofMinutes(5);

    private Builder() {}

    /**
     * See {@link RunConfig#llmCallTimeout()}. Default 5 minutes; {@link java.time.Duration#ZERO}
     * waits for ever.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public Builder llmCallTimeout(java.time.Duration timeout) {
      java.util.Objects.requireNonNull(timeout, "llmCallTimeout");
      if (timeout.isNegative()) {
        throw new IllegalArgumentException("llmCallTimeout must not be negative, got " + timeout);
      }
      this.llmCallTimeout = timeout;
      return this;
    }

    /** See {@link RunConfig#stateConflictRetries()}. Default 0. */
    public Builder stateConflictRetries(int retries) {
      if (retries < 0) {
        throw new IllegalArgumentException("stateConflictRetries must be >= 0, got " + retries);
      }
      this.stateConflictRetries = retries;
      return this;
    }

    /** See {@link RunConfig#maxSessionWait()}. Default 2 minutes. */
    public Builder maxSessionWait(java.time.Duration wait) {
      java.util.Objects.requireNonNull(wait, "maxSessionWait");
      if (wait.isNegative()) {
        throw new IllegalArgumentException("maxSessionWait must not be negative, got " + wait);
      }
      this.maxSessionWait = wait;
      return this;
    }

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

    /** ADK for Java's spelling of {@link #streamingMode(StreamingMode)}. */
    public Builder setStreamingMode(StreamingMode streamingMode) {
      return streamingMode(streamingMode);
    }

    /** ADK for Java's spelling of {@link #maxLlmCalls(int)}. */
    public Builder setMaxLlmCalls(int maxLlmCalls) {
      return maxLlmCalls(maxLlmCalls);
    }

    /** ADK for Java's spelling of {@link #autoCreateSession(boolean)}. */
    public Builder setAutoCreateSession(boolean autoCreateSession) {
      return autoCreateSession(autoCreateSession);
    }

    public RunConfig build() {
      return new RunConfig(this);
    }
  }
}
