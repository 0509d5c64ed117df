package dev.adk4j.agents;

/**
 * How an invocation runs. Immutable; {@link #builder()} gives the defaults: no streaming, at most
 * 500 model calls, no automatic session creation, no retry of tool calls on a state conflict, a
 * wait of at most 2 minutes for a session that another invocation is running, at most 5 minutes for
 * each response of a model call, and the function calls of one model response run concurrently, at
 * most {@value #DEFAULT_MAX_PARALLEL_TOOL_CALLS} at once, on adk4j's tool-call threads.
 */
public final class RunConfig {

  /** The default of {@link #maxParallelToolCalls()}. */
  public static final int DEFAULT_MAX_PARALLEL_TOOL_CALLS = 8;

  /**
   * How the function calls of one model response run (ADK's {@code ToolExecutionMode}). Whatever
   * the mode, their answers form one function-response event whose parts and merged state delta
   * follow the order of the calls (see {@link #toolExecutionMode()}).
   */
  public enum ToolExecutionMode {
    /** Not set: the same as {@link #PARALLEL} (ADK's default too). */
    NONE,
    /** One after the other, on the agent's thread. */
    SEQUENTIAL,
    /**
     * Concurrently, at most {@link RunConfig#maxParallelToolCalls()} at once: on the agent's thread
     * and on {@link RunConfig#toolExecutor()}'s.
     */
    PARALLEL,
    /**
     * ADK for Java's mode that also subscribes each tool on a worker: here the same as PARALLEL.
     */
    PARALLEL_SUBSCRIBE
  }

  /** Whether model output is streamed as partial events. */
  public enum StreamingMode {
    /** One complete event per model response. */
    NONE,
    /** Partial events as text arrives (server-sent events), then the complete event. */
    SSE,
    /**
     * Bidirectional (live) streaming, as {@code Runner.runLive} runs: set by it whatever the config
     * says; {@code runAsync} treats it as {@link #NONE}.
     */
    BIDI
  }

  private final StreamingMode streamingMode;
  private final int maxLlmCalls;
  private final boolean autoCreateSession;
  private final int stateConflictRetries;
  private final java.time.Duration maxSessionWait;
  private final java.time.Duration llmCallTimeout;
  private final ToolExecutionMode toolExecutionMode;
  private final int maxParallelToolCalls;
  private final java.util.concurrent.@org.jspecify.annotations.Nullable Executor toolExecutor;
  private final java.util.function.Consumer<dev.adk4j.sessions.SessionWait> sessionWaitListener;
  private final java.util.List<com.google.genai.types.Modality> responseModalities;
  private final com.google.genai.types.@org.jspecify.annotations.Nullable SpeechConfig speechConfig;
  // ADK's audio, artifact and metadata options (see their accessors)
  private final boolean saveInputBlobsAsArtifacts;
  private final com.google.genai.types.@org.jspecify.annotations.Nullable AudioTranscriptionConfig
      inputAudioTranscription;
  private final com.google.genai.types.@org.jspecify.annotations.Nullable AudioTranscriptionConfig
      outputAudioTranscription;
  private final com.google.genai.types.@org.jspecify.annotations.Nullable AvatarConfig avatarConfig;
  private final java.util.Map<String, Object> customMetadata;
  private final @org.jspecify.annotations.Nullable Boolean groupFunctionResponsesInHistory;

  private RunConfig(Builder b) {
    this.responseModalities = b.responseModalities;
    this.speechConfig = b.speechConfig;
    this.streamingMode = b.streamingMode;
    this.maxLlmCalls = b.maxLlmCalls;
    this.autoCreateSession = b.autoCreateSession;
    this.stateConflictRetries = b.stateConflictRetries;
    this.maxSessionWait = b.maxSessionWait;
    this.llmCallTimeout = b.llmCallTimeout;
    this.toolExecutionMode = b.toolExecutionMode;
    this.maxParallelToolCalls = b.maxParallelToolCalls;
    this.toolExecutor = b.toolExecutor;
    this.sessionWaitListener = b.sessionWaitListener;
    this.saveInputBlobsAsArtifacts = b.saveInputBlobsAsArtifacts;
    this.inputAudioTranscription = b.inputAudioTranscription;
    this.outputAudioTranscription = b.outputAudioTranscription;
    this.avatarConfig = b.avatarConfig;
    this.customMetadata = b.customMetadata;
    this.groupFunctionResponsesInHistory = b.groupFunctionResponsesInHistory;
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
        .llmCallTimeout(llmCallTimeout)
        .toolExecutionMode(toolExecutionMode)
        .maxParallelToolCalls(maxParallelToolCalls)
        .toolExecutor(toolExecutor)
        .sessionWaitListener(sessionWaitListener)
        .responseModalities(responseModalities)
        .speechConfig(speechConfig)
        .saveInputBlobsAsArtifacts(saveInputBlobsAsArtifacts)
        .inputAudioTranscription(inputAudioTranscription)
        .outputAudioTranscription(outputAudioTranscription)
        .avatarConfig(avatarConfig)
        .customMetadata(customMetadata)
        .groupFunctionResponsesInHistoryOverride(
            java.util.Optional.ofNullable(groupFunctionResponsesInHistory));
  }

  /**
   * ADK's {@code saveInputBlobsAsArtifacts}: whether the inline data (files, images, audio) of the
   * user's message is saved as artifacts before the turn starts. Each blob is saved under the name
   * {@code artifact_<invocationId>_<n>} (n counting the message's parts from 0) through the
   * runner's artifact service, and the stored message holds a text part {@code Uploaded file:
   * artifact_<invocationId>_<n>. It is saved into artifacts} in its place, as ADK does; the event
   * records the versions in its {@code artifactDelta}. Default false. Needs an artifact service.
   */
  public boolean saveInputBlobsAsArtifacts() {
    return saveInputBlobsAsArtifacts;
  }

  /**
   * ADK's {@code inputAudioTranscription}: in a live run, asks the model to transcribe the person's
   * audio; the transcription reaches the events ({@code Event.inputTranscription()}). Null (the
   * default): no transcription.
   */
  public com.google.genai.types.@org.jspecify.annotations.Nullable AudioTranscriptionConfig
      inputAudioTranscription() {
    return inputAudioTranscription;
  }

  /**
   * ADK's {@code outputAudioTranscription}: in a live run, asks the model to transcribe its spoken
   * answers ({@code Event.outputTranscription()}). Null (the default): no transcription.
   */
  public com.google.genai.types.@org.jspecify.annotations.Nullable AudioTranscriptionConfig
      outputAudioTranscription() {
    return outputAudioTranscription;
  }

  /**
   * ADK's {@code avatarConfig}: the avatar of a live run's video answers, passed to the live
   * connection's config. Null (the default): none.
   */
  public com.google.genai.types.@org.jspecify.annotations.Nullable AvatarConfig avatarConfig() {
    return avatarConfig;
  }

  /**
   * ADK for Python's {@code custom_metadata}: key-value data attached to the events the agents
   * store for model responses in this run (as {@code Event.customMetadata()} entries, after the
   * model's own). JSON data; unmodifiable; empty (the default) attaches nothing.
   */
  public java.util.Map<String, Object> customMetadata() {
    return customMetadata;
  }

  /**
   * ADK's {@code groupFunctionResponsesInHistory}: whether a model's history holds all function
   * calls before all function responses. Accepted; it changes nothing in adk4j, whose history
   * always holds the calls of one model response in one content and their answers in the next.
   */
  @Deprecated
  public boolean groupFunctionResponsesInHistory() {
    return Boolean.TRUE.equals(groupFunctionResponsesInHistory);
  }

  /** ADK's {@code groupFunctionResponsesInHistoryOverride}: the flag as set, empty when unset. */
  public java.util.Optional<Boolean> groupFunctionResponsesInHistoryOverride() {
    return java.util.Optional.ofNullable(groupFunctionResponsesInHistory);
  }

  /**
   * The modalities a live run ({@code Runner.runLive}) asks the model to answer in, such as {@code
   * AUDIO} or {@code TEXT}; empty (the default) leaves it to the model.
   */
  public java.util.List<com.google.genai.types.Modality> responseModalities() {
    return responseModalities;
  }

  /**
   * The voice of a live run's spoken answers; null (the default, as in ADK) leaves it to the model.
   */
  public com.google.genai.types.@org.jspecify.annotations.Nullable SpeechConfig speechConfig() {
    return speechConfig;
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

  /**
   * How the function calls of one model response run; default {@link ToolExecutionMode#NONE}, which
   * is {@link ToolExecutionMode#PARALLEL}. Concurrent calls each have their own {@code
   * ToolContext}; their writes are visible to each other at once (one live state), and the event
   * that answers them merges their state deltas <b>in the order of the calls</b>, whatever order
   * they finish in: when two calls write the same key, the later call in the model's order wins, in
   * the event, in the live state and in storage. A call that fails gets its own error response and
   * loses its own writes only. Tools, and tool callbacks and plugins, must then be thread-safe.
   */
  public ToolExecutionMode toolExecutionMode() {
    return toolExecutionMode;
  }

  /**
   * The most function calls of one model response that run at once in {@link
   * ToolExecutionMode#PARALLEL} mode (the agent's thread counts as one); default {@value
   * #DEFAULT_MAX_PARALLEL_TOOL_CALLS}. 1 runs them one after the other.
   */
  public int maxParallelToolCalls() {
    return maxParallelToolCalls;
  }

  /**
   * Where concurrent function calls run besides the agent's own thread; empty means adk4j's shared
   * pool of daemon threads named {@code adk4j-tool-call-N} (created on demand, ended after 60 idle
   * seconds). If the executor refuses a task (it is saturated or shut down), the agent's thread
   * runs the calls left itself, so a bounded executor never deadlocks a nested call (an {@code
   * AgentTool} whose agent calls tools in parallel too).
   */
  public java.util.Optional<java.util.concurrent.Executor> toolExecutor() {
    return java.util.Optional.ofNullable(toolExecutor);
  }

  /**
   * Told once, on the invocation's thread, when the invocation has to wait for its session because
   * another invocation runs on it (in this process or in another sharing the store), with who holds
   * it and for how long: a server can show the caller why nothing happens yet ({@code adk-server}
   * writes it into the event stream as a comment line). It must not block. Default: nothing (the
   * database service also logs the wait at INFO).
   */
  public java.util.function.Consumer<dev.adk4j.sessions.SessionWait> sessionWaitListener() {
    return sessionWaitListener;
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
        + ", toolExecutionMode="
        + toolExecutionMode
        + ", maxParallelToolCalls="
        + maxParallelToolCalls
        + (toolExecutor == null ? "" : ", toolExecutor=" + toolExecutor)
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
    private ToolExecutionMode toolExecutionMode = ToolExecutionMode.NONE;
    private int maxParallelToolCalls = DEFAULT_MAX_PARALLEL_TOOL_CALLS;
    private java.util.concurrent.@org.jspecify.annotations.Nullable Executor toolExecutor;
    private java.util.function.Consumer<dev.adk4j.sessions.SessionWait> sessionWaitListener =
        wait -> {};

    private java.util.List<com.google.genai.types.Modality> responseModalities =
        java.util.List.of();
    private com.google.genai.types.@org.jspecify.annotations.Nullable SpeechConfig speechConfig;
    private boolean saveInputBlobsAsArtifacts;
    private com.google.genai.types.@org.jspecify.annotations.Nullable AudioTranscriptionConfig
        inputAudioTranscription;
    private com.google.genai.types.@org.jspecify.annotations.Nullable AudioTranscriptionConfig
        outputAudioTranscription;
    private com.google.genai.types.@org.jspecify.annotations.Nullable AvatarConfig avatarConfig;
    private java.util.Map<String, Object> customMetadata = java.util.Map.of();
    private @org.jspecify.annotations.Nullable Boolean groupFunctionResponsesInHistory;

    private Builder() {}

    /** See {@link RunConfig#saveInputBlobsAsArtifacts()}. Default false. */
    public Builder saveInputBlobsAsArtifacts(boolean save) {
      this.saveInputBlobsAsArtifacts = save;
      return this;
    }

    /** ADK for Java's spelling of {@link #saveInputBlobsAsArtifacts(boolean)}. */
    public Builder setSaveInputBlobsAsArtifacts(boolean save) {
      return saveInputBlobsAsArtifacts(save);
    }

    /** See {@link RunConfig#inputAudioTranscription()}. Default null. */
    public Builder inputAudioTranscription(
        com.google.genai.types.@org.jspecify.annotations.Nullable AudioTranscriptionConfig config) {
      this.inputAudioTranscription = config;
      return this;
    }

    /** ADK for Java's spelling of {@code inputAudioTranscription(..)}. */
    public Builder setInputAudioTranscription(
        com.google.genai.types.@org.jspecify.annotations.Nullable AudioTranscriptionConfig config) {
      return inputAudioTranscription(config);
    }

    /** See {@link RunConfig#outputAudioTranscription()}. Default null. */
    public Builder outputAudioTranscription(
        com.google.genai.types.@org.jspecify.annotations.Nullable AudioTranscriptionConfig config) {
      this.outputAudioTranscription = config;
      return this;
    }

    /** ADK for Java's spelling of {@code outputAudioTranscription(..)}. */
    public Builder setOutputAudioTranscription(
        com.google.genai.types.@org.jspecify.annotations.Nullable AudioTranscriptionConfig config) {
      return outputAudioTranscription(config);
    }

    /** See {@link RunConfig#avatarConfig()}. Default null. */
    public Builder avatarConfig(
        com.google.genai.types.@org.jspecify.annotations.Nullable AvatarConfig avatarConfig) {
      this.avatarConfig = avatarConfig;
      return this;
    }

    /**
     * See {@link RunConfig#customMetadata()}; null clears it. The values are copied as their JSON
     * round trip.
     *
     * @throws IllegalArgumentException if a value is not JSON data (naming its key)
     */
    @SuppressWarnings("unchecked")
    public Builder customMetadata(
        java.util.@org.jspecify.annotations.Nullable Map<
                String, ? extends @org.jspecify.annotations.Nullable Object>
            metadata) {
      if (metadata == null || metadata.isEmpty()) {
        this.customMetadata = java.util.Map.of();
        return this;
      }
      java.util.Map<String, Object> copy = new java.util.LinkedHashMap<>();
      metadata.forEach(
          (k, v) -> {
            Object value = dev.adk4j.internal.Json.normalize("customMetadata." + k, v);
            if (value != null) {
              copy.put(k, value);
            }
          });
      this.customMetadata = java.util.Collections.unmodifiableMap(copy);
      return this;
    }

    /** ADK for Java's spelling of {@code customMetadata(..)}. */
    public Builder setCustomMetadata(
        java.util.@org.jspecify.annotations.Nullable Map<
                String, ? extends @org.jspecify.annotations.Nullable Object>
            metadata) {
      return customMetadata(metadata);
    }

    /** See {@link RunConfig#groupFunctionResponsesInHistory()}: accepted, changes nothing. */
    @Deprecated
    public Builder groupFunctionResponsesInHistory(boolean group) {
      this.groupFunctionResponsesInHistory = group;
      return this;
    }

    /** ADK's override form of {@code groupFunctionResponsesInHistory}: empty unsets it. */
    public Builder groupFunctionResponsesInHistoryOverride(java.util.Optional<Boolean> group) {
      this.groupFunctionResponsesInHistory = group.orElse(null);
      return this;
    }

    /** ADK's override form of {@code groupFunctionResponsesInHistory}. */
    public Builder groupFunctionResponsesInHistoryOverride(boolean group) {
      this.groupFunctionResponsesInHistory = group;
      return this;
    }

    /** See {@link RunConfig#responseModalities()}. Default: none. */
    public Builder responseModalities(
        java.util.List<com.google.genai.types.Modality> responseModalities) {
      this.responseModalities =
          java.util.List.copyOf(
              java.util.Objects.requireNonNull(responseModalities, "responseModalities"));
      return this;
    }

    /** ADK for Java's spelling of {@link #responseModalities(java.util.List)}. */
    public Builder setResponseModalities(
        java.util.List<com.google.genai.types.Modality> responseModalities) {
      return responseModalities(responseModalities);
    }

    /** See {@link RunConfig#speechConfig()}. Default: null (the model's). */
    public Builder speechConfig(
        com.google.genai.types.@org.jspecify.annotations.Nullable SpeechConfig speechConfig) {
      this.speechConfig = speechConfig;
      return this;
    }

    /** ADK for Java's spelling of {@link #speechConfig(com.google.genai.types.SpeechConfig)}. */
    public Builder setSpeechConfig(
        com.google.genai.types.@org.jspecify.annotations.Nullable SpeechConfig speechConfig) {
      return speechConfig(speechConfig);
    }

    /** See {@link RunConfig#sessionWaitListener()}. Default: a listener that does nothing. */
    public Builder sessionWaitListener(
        java.util.function.Consumer<dev.adk4j.sessions.SessionWait> listener) {
      this.sessionWaitListener = java.util.Objects.requireNonNull(listener, "sessionWaitListener");
      return this;
    }

    /** See {@link RunConfig#toolExecutionMode()}. Default {@link ToolExecutionMode#NONE}. */
    public Builder toolExecutionMode(ToolExecutionMode mode) {
      this.toolExecutionMode = java.util.Objects.requireNonNull(mode, "toolExecutionMode");
      return this;
    }

    /** ADK for Java's spelling of {@link #toolExecutionMode(ToolExecutionMode)}. */
    public Builder setToolExecutionMode(ToolExecutionMode mode) {
      return toolExecutionMode(mode);
    }

    /**
     * See {@link RunConfig#maxParallelToolCalls()}. Default {@value
     * RunConfig#DEFAULT_MAX_PARALLEL_TOOL_CALLS}.
     *
     * @throws IllegalArgumentException if {@code max} is below 1
     */
    public Builder maxParallelToolCalls(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxParallelToolCalls must be >= 1, got " + max);
      }
      this.maxParallelToolCalls = max;
      return this;
    }

    /**
     * See {@link RunConfig#toolExecutor()}; null (the default) uses adk4j's tool-call threads. The
     * caller owns the executor: adk4j never shuts it down.
     */
    public Builder toolExecutor(
        java.util.concurrent.@org.jspecify.annotations.Nullable Executor executor) {
      this.toolExecutor = executor;
      return this;
    }

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

    /**
     * @throws IllegalArgumentException if {@code maxLlmCalls} is {@link Integer#MAX_VALUE} (as in
     *     ADK: 0 or less is how to say "no limit")
     */
    public RunConfig build() {
      if (maxLlmCalls == Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "maxLlmCalls must be less than Integer.MAX_VALUE (0 or less means no limit)");
      }
      return new RunConfig(this);
    }
  }
}
