package dev.adk4j.agents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.Schema;
import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRegistry;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.BaseToolset;
import io.reactivex.rxjava3.core.BackpressureStrategy;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Single;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An agent driven by a language model.
 *
 * <p>Each step renders the instructions ({@code {key}} placeholders filled from state, see {@link
 * InstructionUtils}), sends the conversation history of the agent's branch to the model, stores and
 * emits the response, runs any function calls through the agent's tools, and calls the model again
 * with the results, until the model answers without calling a function, a tool skips summarization,
 * or {@link RunConfig#maxLlmCalls()} is reached. A call to {@code transfer_to_agent} hands the rest
 * of the invocation to the named sub-agent (or parent).
 *
 * <p>With an {@link Builder#outputKey(String) output key}, the agent's own final response (its
 * joined non-thought text, or the parsed JSON object with an {@link Builder#outputSchema(Schema)
 * output schema}) is written to that key through the response event's delta, so the next sub-agent
 * sees it at once, even under a {@code temp:} key. Content a before-agent callback returns in the
 * agent's place counts as its final response. With an output schema, a whitespace-only answer
 * writes nothing.
 *
 * <p>Instruction providers get a read-only {@link ReadonlyContext}: state writes are refused.
 *
 * <p>Immutable and thread-safe; one instance may serve many invocations at once.
 *
 * <p>This class is the agent's configuration. Each run is driven by an {@code LlmFlow} (the model
 * and tool loop), which has the function calls answered by {@code ToolCalls} and transfers through
 * {@code AgentTransfer}; a tool call that goes wrong becomes an error response by one rule, {@code
 * ToolFailures}.
 */
public final class LlmAgent extends BaseAgent {
  private static final Logger log = LoggerFactory.getLogger(LlmAgent.class);

  /** Which of the session's history an agent sends to its model. */
  public enum IncludeContents {
    /** The history of the agent's branch, from the latest compaction on (the default). */
    DEFAULT,
    /** None of the earlier invocations: only the current invocation's events. */
    NONE
  }

  /** The name of the built-in tool that transfers control to another agent. */
  public static final String TRANSFER_TO_AGENT = "transfer_to_agent";

  private final @Nullable BaseLlm model;
  private final @Nullable String modelName;
  private final @Nullable String instruction;
  private final @Nullable InstructionProvider instructionProvider;
  private final @Nullable String globalInstruction;
  private final @Nullable InstructionProvider globalInstructionProvider;
  private final @Nullable String outputKey;
  private final @Nullable Schema outputSchema;
  private final GenerateContentConfig requestConfig;
  private final List<BaseTool> tools;
  private final List<BaseToolset> toolsets;
  private final IncludeContents includeContents;
  private final @Nullable Integer historyWindow;
  private final boolean disallowTransferToParent;
  private final boolean secretsInInstructions;
  private final List<Callbacks.BeforeModelCallback> beforeModelCallbacks;
  private final List<Callbacks.AfterModelCallback> afterModelCallbacks;
  private final List<Callbacks.BeforeToolCallback> beforeToolCallbacks;
  private final List<Callbacks.AfterToolCallback> afterToolCallbacks;
  private final List<Callbacks.OnModelErrorCallback> onModelErrorCallbacks;
  private final List<Callbacks.OnToolErrorCallback> onToolErrorCallbacks;
  private final @Nullable Integer maxSteps;
  private final boolean disallowTransferToPeers;
  private final @Nullable Schema inputSchema;

  /** The conversations this agent's last requests were built from (see {@link HistoryCache}). */
  final HistoryCache histories = new HistoryCache();

  private LlmAgent(Builder b) {
    super(
        b.requireName(), b.description, b.subAgents, b.beforeAgentCallbacks, b.afterAgentCallbacks);
    this.model = b.model;
    this.modelName = b.modelName;
    this.instruction = b.instruction;
    this.instructionProvider = b.instructionProvider;
    this.globalInstruction = b.globalInstruction;
    this.globalInstructionProvider = b.globalInstructionProvider;
    this.outputKey = b.outputKey;
    this.outputSchema = b.outputSchema;
    GenerateContentConfig.Builder config =
        b.generateContentConfig == null
            ? GenerateContentConfig.builder()
            : b.generateContentConfig.toBuilder();
    if (outputSchema != null) {
      config.responseMimeType("application/json").responseSchema(outputSchema);
    }
    this.requestConfig = config.build();
    this.tools = List.copyOf(b.tools);
    this.toolsets = List.copyOf(b.toolsets);
    this.includeContents = b.includeContents;
    this.historyWindow = b.historyWindow;
    this.disallowTransferToParent = b.disallowTransferToParent;
    this.secretsInInstructions = b.secretsInInstructions;
    this.beforeModelCallbacks = List.copyOf(b.beforeModelCallbacks);
    this.afterModelCallbacks = List.copyOf(b.afterModelCallbacks);
    this.beforeToolCallbacks = List.copyOf(b.beforeToolCallbacks);
    this.afterToolCallbacks = List.copyOf(b.afterToolCallbacks);
    this.onModelErrorCallbacks = List.copyOf(b.onModelErrorCallbacks);
    this.onToolErrorCallbacks = List.copyOf(b.onToolErrorCallbacks);
    this.maxSteps = b.maxSteps;
    this.disallowTransferToPeers = b.disallowTransferToPeers;
    this.inputSchema = b.inputSchema;
    Set<String> names = new HashSet<>();
    for (BaseTool t : tools) {
      if (!names.add(t.name())) {
        throw new IllegalArgumentException(
            "Agent '" + name() + "' has two tools named '" + t.name() + "'");
      }
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  public Optional<String> outputKey() {
    return Optional.ofNullable(outputKey);
  }

  public Optional<Schema> outputSchema() {
    return Optional.ofNullable(outputSchema);
  }

  /** The tools given to the builder; the tools of {@link #toolsets()} are not among them. */
  public List<BaseTool> tools() {
    return tools;
  }

  /** Closes this agent's toolsets (see {@link BaseToolset#close()}), then its sub-agents. */
  @Override
  public Completable close() {
    return Completable.fromAction(
            () -> {
              for (BaseToolset toolset : toolsets) {
                toolset.close();
              }
            })
        .andThen(super.close());
  }

  /** The toolsets whose tools the agent lists at every model call it prepares. */
  public List<BaseToolset> toolsets() {
    return toolsets;
  }

  /**
   * The tools of this agent's step in {@code ctx}: its own tools, then those its toolsets offered
   * when the step's model request was prepared ({@link #listTools}); listed now if none was.
   */
  List<BaseTool> toolsFor(InvocationContext ctx) {
    if (toolsets.isEmpty()) {
      return tools;
    }
    List<BaseTool> listed = ctx.listedTools(this);
    return listed != null ? listed : listTools(ctx);
  }

  /**
   * Asks the toolsets for their tools and keeps the result in the invocation for the calls of the
   * step being prepared.
   *
   * @throws IllegalStateException if two tools of the agent have one name
   */
  List<BaseTool> listTools(InvocationContext ctx) {
    if (toolsets.isEmpty()) {
      return tools;
    }
    ReadonlyContext readonly = new ReadonlyContext(ctx);
    List<BaseTool> all = new ArrayList<>(tools);
    java.util.Map<String, String> owners = new java.util.HashMap<>();
    tools.forEach(t -> owners.put(t.name(), "its tools"));
    for (BaseToolset set : toolsets) {
      for (BaseTool t : set.getTools(readonly).toList().blockingGet()) {
        String owner = owners.putIfAbsent(t.name(), "toolset " + set);
        if (owner != null) {
          throw new IllegalStateException(
              "Agent '"
                  + name()
                  + "' has two tools named '"
                  + t.name()
                  + "': one from "
                  + owner
                  + ", one from toolset "
                  + set);
        }
        all.add(t);
      }
    }
    List<BaseTool> listed = List.copyOf(all);
    ctx.rememberListedTools(this, listed);
    return listed;
  }

  public IncludeContents includeContents() {
    return includeContents;
  }

  /**
   * Whether this agent's instructions may insert {@code secret:} keys ({@code {secret:api_key}}),
   * sending their values to the model: false unless its builder said {@link
   * Builder#secretsInInstructions(boolean) secretsInInstructions(true)}.
   */
  public boolean secretsInInstructions() {
    return secretsInInstructions;
  }

  /** The number of earlier invocations the model sees, if limited. */
  public Optional<Integer> historyWindow() {
    return Optional.ofNullable(historyWindow);
  }

  /**
   * The model this agent calls: its own, or the one named by its model name, or its nearest
   * ancestor's.
   *
   * @throws IllegalStateException if neither it nor an ancestor has a model
   */
  public BaseLlm resolvedModel() {
    if (model != null) {
      return model;
    }
    if (modelName != null) {
      return LlmRegistry.resolve(modelName);
    }
    for (Optional<BaseAgent> a = parentAgent(); a.isPresent(); a = a.get().parentAgent()) {
      if (a.get() instanceof LlmAgent) {
        return ((LlmAgent) a.get()).resolvedModel();
      }
    }
    throw new IllegalStateException("Agent '" + name() + "' has no model and no ancestor with one");
  }

  /**
   * The instruction as ADK for Java answers it: an {@link Instruction.Static} holding the template
   * (empty when none was set), or an {@link Instruction.Provider} for one given as a function.
   */
  public Instruction instruction() {
    return asInstruction(instruction, instructionProvider);
  }

  /** The global instruction, as {@link #instruction()} answers the instruction. */
  public Instruction globalInstruction() {
    return asInstruction(globalInstruction, globalInstructionProvider);
  }

  private static Instruction asInstruction(
      @Nullable String template, @Nullable InstructionProvider provider) {
    if (provider instanceof Instruction given) {
      return given;
    }
    if (provider != null) {
      return new Instruction.Provider(provider::getInstruction);
    }
    return new Instruction.Static(template == null ? "" : template);
  }

  /** ADK for Java's name for this agent's tools, as a {@code Flowable} (toolsets not included). */
  public Flowable<BaseTool> canonicalTools() {
    return Flowable.fromIterable(tools);
  }

  /** ADK for Java's name for the before-model callbacks, in the order they run. */
  public List<Callbacks.BeforeModelCallback> canonicalBeforeModelCallbacks() {
    return beforeModelCallbacks;
  }

  /** ADK for Java's name for the after-model callbacks, in the order they run. */
  public List<Callbacks.AfterModelCallback> canonicalAfterModelCallbacks() {
    return afterModelCallbacks;
  }

  /** ADK for Java's name for the before-tool callbacks, in the order they run. */
  public List<Callbacks.BeforeToolCallback> canonicalBeforeToolCallbacks() {
    return beforeToolCallbacks;
  }

  /** ADK for Java's name for the after-tool callbacks, in the order they run. */
  public List<Callbacks.AfterToolCallback> canonicalAfterToolCallbacks() {
    return afterToolCallbacks;
  }

  /** ADK for Java's name for the on-model-error callbacks, in the order they are asked. */
  public List<Callbacks.OnModelErrorCallback> canonicalOnModelErrorCallbacks() {
    return onModelErrorCallbacks;
  }

  /** ADK for Java's name for the on-tool-error callbacks, in the order they are asked. */
  public List<Callbacks.OnToolErrorCallback> canonicalOnToolErrorCallbacks() {
    return onToolErrorCallbacks;
  }

  /** The most model steps one run of this agent takes ({@link Builder#maxSteps}), if limited. */
  public Optional<Integer> maxSteps() {
    return Optional.ofNullable(maxSteps);
  }

  /** Whether {@link Builder#disallowTransferToPeers} was set. */
  public boolean disallowTransferToPeers() {
    return disallowTransferToPeers;
  }

  /** The schema of this agent's input when it runs as an {@code AgentTool}, if one was given. */
  public Optional<Schema> inputSchema() {
    return Optional.ofNullable(inputSchema);
  }

  /**
   * The instruction rendered for {@code context}: templated, or from the provider as is. The
   * provider (and the templating) get a read-only view of {@code context} even when it is a {@link
   * CallbackContext}: they read state and artifacts, and a write is refused.
   */
  public Single<String> canonicalInstruction(ReadonlyContext context) {
    ReadonlyContext readonly = ReadonlyContext.readonlyView(context);
    if (instructionProvider != null) {
      return instructionProvider.getInstruction(readonly);
    }
    return instruction == null
        ? Single.just("")
        : InstructionUtils.injectSessionState(readonly, instruction);
  }

  /**
   * The global instruction of this agent rendered for {@code context}, through a read-only view of
   * it as {@link #canonicalInstruction} does.
   */
  public Single<String> canonicalGlobalInstruction(ReadonlyContext context) {
    ReadonlyContext readonly = ReadonlyContext.readonlyView(context);
    if (globalInstructionProvider != null) {
      return globalInstructionProvider.getInstruction(readonly);
    }
    return globalInstruction == null
        ? Single.just("")
        : InstructionUtils.injectSessionState(readonly, globalInstruction);
  }

  /**
   * The instruction as it is when it needs no rendering (no provider, no placeholder): what {@link
   * #canonicalInstruction} gives for any context, without a {@code Single}; null otherwise.
   */
  @Nullable String staticInstruction() {
    if (instructionProvider != null) {
      return null;
    }
    return instruction == null ? "" : instruction.indexOf('{') < 0 ? instruction : null;
  }

  /** {@link #staticInstruction()} for the global instruction. */
  @Nullable String staticGlobalInstruction() {
    if (globalInstructionProvider != null) {
      return null;
    }
    return globalInstruction == null
        ? ""
        : globalInstruction.indexOf('{') < 0 ? globalInstruction : null;
  }

  /** Its events are stored where they are made (see {@link BaseAgent#storesOwnEvents}). */
  @Override
  boolean storesOwnEvents() {
    return true;
  }

  @Override
  protected Flowable<Event> runAsyncImpl(InvocationContext context) {
    // Flowable.create(..., BUFFER), without a queue while the consumer keeps up
    return dev.adk4j.internal.EmitterFlowable.create(
        emitter -> new LlmFlow(this, context, emitter).run());
  }

  /**
   * Runs this agent live on {@code queue} ({@code Runner.runLive} calls it): one model connection,
   * the caller's content and realtime input sent as they come, the model's turns and tool calls
   * emitted (and, except partial pieces, stored through {@code context}) until the queue closes.
   * The Flowable fails with an {@code LlmException} if the connection fails or the model has no
   * live API.
   */
  public Flowable<Event> runLive(InvocationContext context, LiveRequestQueue queue) {
    // The plugins' and this agent's before- and after-agent callbacks run around the live
    // connection, as around a turn: a before-agent answer replaces the live run.
    return withAgentCallbacks(
        context,
        Flowable.create(
            emitter -> new LiveFlow(this, context, queue, emitter).run(),
            BackpressureStrategy.BUFFER));
  }

  // ---- read by the run loop (LlmFlow, ToolCalls, AgentTransfer) ----

  /** The model name given to the builder, if any (not resolved). */
  @Nullable String modelName() {
    return modelName;
  }

  /**
   * The generation config of this agent's requests: the builder's, asking for JSON that matches the
   * output schema if there is one.
   */
  GenerateContentConfig requestConfig() {
    return requestConfig;
  }

  boolean disallowTransferToParent() {
    return disallowTransferToParent;
  }

  List<Callbacks.BeforeModelCallback> beforeModelCallbacks() {
    return beforeModelCallbacks;
  }

  List<Callbacks.AfterModelCallback> afterModelCallbacks() {
    return afterModelCallbacks;
  }

  List<Callbacks.BeforeToolCallback> beforeToolCallbacks() {
    return beforeToolCallbacks;
  }

  List<Callbacks.AfterToolCallback> afterToolCallbacks() {
    return afterToolCallbacks;
  }

  /**
   * Stores {@code event}'s answer under the output key, through {@code cc} (so in the delta of the
   * event {@code cc} builds), if there is a key and {@code event} is this agent's own final answer:
   * not partial, no function call or response, no error, and some non-thought text. The joined text
   * is stored; with an output schema, the parsed JSON value. Used for the model's answers and for
   * the content a before-agent callback returns in the agent's place.
   *
   * <p>Nothing is written for an answer with no text, nor, with an output schema, for one that is
   * only whitespace (an empty last chunk of a stream; it is no JSON value, and a value stored
   * earlier under the key stays). With an output schema, an answer that is not JSON is stored as
   * its text, with a warning (as ADK Java does).
   */
  void recordOutput(CallbackContext cc, Event event) {
    if (outputKey == null
        || !name().equals(event.author())
        || !event.finalResponse()
        || !event.functionCalls().isEmpty() // a call the invocation paused on is final, too
        || event.errorCode().isPresent()) {
      return;
    }
    String text = event.stringifyContent();
    if (text.isEmpty() || (outputSchema != null && text.isBlank())) {
      return;
    }
    cc.state().put(outputKey, outputValue(text));
  }

  @Override
  void recordBeforeAgentReply(CallbackContext context, Event reply) {
    recordOutput(context, reply);
  }

  private Object outputValue(String text) {
    if (outputSchema == null) {
      return text;
    }
    try {
      return Json.reader().forType(Object.class).readValue(text);
    } catch (JsonProcessingException e) {
      log.warn(
          "Agent '{}' has an output schema but its answer is not JSON ({}); storing the text under"
              + " '{}'",
          name(),
          e.getOriginalMessage(),
          outputKey);
      return text;
    }
  }

  /** Builds an {@link LlmAgent}. */
  public static final class Builder extends BaseAgent.Builder<Builder> {
    private @Nullable BaseLlm model;
    private @Nullable String modelName;
    private @Nullable String instruction;
    private @Nullable InstructionProvider instructionProvider;
    private @Nullable String globalInstruction;
    private @Nullable InstructionProvider globalInstructionProvider;
    private @Nullable String outputKey;
    private @Nullable Schema outputSchema;
    private @Nullable GenerateContentConfig generateContentConfig;
    private final List<BaseTool> tools = new ArrayList<>();
    private final List<BaseToolset> toolsets = new ArrayList<>();
    private IncludeContents includeContents = IncludeContents.DEFAULT;
    private @Nullable Integer historyWindow;
    private boolean disallowTransferToParent;
    private boolean secretsInInstructions;
    private final List<Callbacks.BeforeModelCallback> beforeModelCallbacks = new ArrayList<>();
    private final List<Callbacks.AfterModelCallback> afterModelCallbacks = new ArrayList<>();
    private final List<Callbacks.BeforeToolCallback> beforeToolCallbacks = new ArrayList<>();
    private final List<Callbacks.AfterToolCallback> afterToolCallbacks = new ArrayList<>();
    private final List<Callbacks.OnModelErrorCallback> onModelErrorCallbacks = new ArrayList<>();
    private final List<Callbacks.OnToolErrorCallback> onToolErrorCallbacks = new ArrayList<>();
    private @Nullable Integer maxSteps;
    private boolean disallowTransferToPeers;
    private @Nullable Schema inputSchema;

    private Builder() {}

    /** The model, by name (resolved through {@link LlmRegistry} when the agent first runs). */
    public Builder model(String modelName) {
      this.modelName = Objects.requireNonNull(modelName, "modelName");
      this.model = null;
      return this;
    }

    public Builder model(BaseLlm model) {
      this.model = Objects.requireNonNull(model, "model");
      this.modelName = null;
      return this;
    }

    /** The instruction, with {@code {key}} placeholders filled from state at each model call. */
    public Builder instruction(String instruction) {
      this.instruction = instruction;
      this.instructionProvider = null;
      return this;
    }

    /** An instruction computed per call; its text is used as is. */
    public Builder instruction(InstructionProvider provider) {
      this.instructionProvider = Objects.requireNonNull(provider, "provider");
      this.instruction = null;
      return this;
    }

    /** An instruction for every agent of the tree (read from the root agent), templated. */
    public Builder globalInstruction(String globalInstruction) {
      this.globalInstruction = globalInstruction;
      this.globalInstructionProvider = null;
      return this;
    }

    public Builder globalInstruction(InstructionProvider provider) {
      this.globalInstructionProvider = Objects.requireNonNull(provider, "provider");
      this.globalInstruction = null;
      return this;
    }

    /** Stores the agent's final answer under this state key. */
    public Builder outputKey(String outputKey) {
      dev.adk4j.state.Scope.checkKey(outputKey);
      this.outputKey = outputKey;
      return this;
    }

    /** Asks the model for JSON matching {@code schema}; the output key then stores the object. */
    public Builder outputSchema(Schema schema) {
      this.outputSchema = schema;
      return this;
    }

    public Builder generateContentConfig(GenerateContentConfig config) {
      this.generateContentConfig = config;
      return this;
    }

    public Builder tools(BaseTool... tools) {
      return tools(List.of(tools));
    }

    public Builder tools(List<? extends BaseTool> tools) {
      this.tools.clear();
      this.tools.addAll(tools);
      return this;
    }

    /**
     * ADK's form: tools and toolsets in one list, each a {@link BaseTool} or a {@link BaseToolset};
     * replaces both.
     *
     * @throws IllegalArgumentException naming the class of an item that is neither
     */
    public Builder tools(Object... toolsAndToolsets) {
      List<BaseTool> plain = new ArrayList<>();
      List<BaseToolset> sets = new ArrayList<>();
      for (Object o : toolsAndToolsets) {
        if (o instanceof BaseTool t) {
          plain.add(t);
        } else if (o instanceof BaseToolset set) {
          sets.add(set);
        } else {
          throw new IllegalArgumentException(
              "tools(...) takes BaseTool and BaseToolset objects, not "
                  + (o == null ? "null" : o.getClass().getName()));
        }
      }
      tools(plain);
      return toolsets(sets);
    }

    /** The toolsets whose tools are listed at every model call (replaces earlier ones). */
    public Builder toolsets(BaseToolset... toolsets) {
      return toolsets(List.of(toolsets));
    }

    public Builder toolsets(List<? extends BaseToolset> toolsets) {
      this.toolsets.clear();
      this.toolsets.addAll(toolsets);
      return this;
    }

    /** Which history the model receives; {@link IncludeContents#DEFAULT} by default. */
    public Builder includeContents(IncludeContents includeContents) {
      this.includeContents = Objects.requireNonNull(includeContents, "includeContents");
      return this;
    }

    /**
     * Sends the model only the events of the last {@code invocations} invocations before the
     * current one (and the current one's); unlimited by default. 0 is the same as {@link
     * IncludeContents#NONE}.
     */
    public Builder historyWindow(int invocations) {
      if (invocations < 0) {
        throw new IllegalArgumentException("historyWindow must be >= 0, got " + invocations);
      }
      this.historyWindow = invocations;
      return this;
    }

    public Builder disallowTransferToParent(boolean disallow) {
      this.disallowTransferToParent = disallow;
      return this;
    }

    /**
     * ADK for Java's option. adk4j never lists an agent's peers to its model (see the migration
     * guide), so {@code true} is what it does anyway; a {@code transfer_to_agent} call naming a
     * peer is honoured either way, as in ADK.
     */
    public Builder disallowTransferToPeers(boolean disallow) {
      this.disallowTransferToPeers = disallow;
      return this;
    }

    /**
     * Limits one run of this agent to {@code steps} model calls (each with the tool calls it asks
     * for), as ADK for Java's {@code maxSteps}: after the last one the agent's run ends quietly, as
     * if the model had answered, and the invocation goes on. Unlimited by default (apart from
     * {@link RunConfig#maxLlmCalls()}, which fails the invocation).
     *
     * @throws IllegalArgumentException if {@code steps} is less than 1
     */
    public Builder maxSteps(int steps) {
      if (steps < 1) {
        throw new IllegalArgumentException(
            "maxSteps of agent '" + name + "' must be >= 1, got " + steps);
      }
      this.maxSteps = steps;
      return this;
    }

    /**
     * The schema of this agent's input when an {@code AgentTool} runs it, as in ADK for Java: the
     * tool declares these parameters (instead of one {@code request} string) and passes the model's
     * arguments to the agent as their JSON text.
     */
    public Builder inputSchema(@Nullable Schema schema) {
      this.inputSchema = schema;
      return this;
    }

    /** ADK for Java's spelling: adds an on-model-error callback (asked in the order added). */
    public Builder onModelErrorCallback(Callbacks.OnModelErrorCallback callback) {
      this.onModelErrorCallbacks.add(Objects.requireNonNull(callback, "callback"));
      return this;
    }

    /** ADK for Java's spelling: adds a synchronous on-model-error callback. */
    public Builder onModelErrorCallbackSync(Callbacks.OnModelErrorCallbackSync callback) {
      return onModelErrorCallback(Objects.requireNonNull(callback, "callback").toAsync());
    }

    /** ADK for Java's spelling: adds an on-tool-error callback (asked in the order added). */
    public Builder onToolErrorCallback(Callbacks.OnToolErrorCallback callback) {
      this.onToolErrorCallbacks.add(Objects.requireNonNull(callback, "callback"));
      return this;
    }

    /** ADK for Java's spelling: adds a synchronous on-tool-error callback. */
    public Builder onToolErrorCallbackSync(Callbacks.OnToolErrorCallbackSync callback) {
      return onToolErrorCallback(Objects.requireNonNull(callback, "callback").toAsync());
    }

    /**
     * ADK for Java's list form: replaces the on-model-error callbacks set so far; each is a {@link
     * Callbacks.OnModelErrorCallback} or a {@link Callbacks.OnModelErrorCallbackSync}.
     *
     * @throws IllegalArgumentException naming the position of an element of another type
     */
    public Builder onModelErrorCallback(@Nullable List<?> callbacks) {
      onModelErrorCallbacks.clear();
      int i = 0;
      for (Object c : callbacks == null ? List.of() : callbacks) {
        if (c instanceof Callbacks.OnModelErrorCallback async) {
          onModelErrorCallback(async);
        } else if (c instanceof Callbacks.OnModelErrorCallbackSync sync) {
          onModelErrorCallbackSync(sync);
        } else {
          throw notACallback("onModelErrorCallback", i, c);
        }
        i++;
      }
      return this;
    }

    /** ADK for Java's list form of {@link #onToolErrorCallback}: replaces those set so far. */
    public Builder onToolErrorCallback(@Nullable List<?> callbacks) {
      onToolErrorCallbacks.clear();
      int i = 0;
      for (Object c : callbacks == null ? List.of() : callbacks) {
        if (c instanceof Callbacks.OnToolErrorCallback async) {
          onToolErrorCallback(async);
        } else if (c instanceof Callbacks.OnToolErrorCallbackSync sync) {
          onToolErrorCallbackSync(sync);
        } else {
          throw notACallback("onToolErrorCallback", i, c);
        }
        i++;
      }
      return this;
    }

    /**
     * Lets this agent's instructions (and the global instruction, when this agent runs) insert
     * {@code secret:} keys, {@code {secret:name}}, which sends their values to the model. Off by
     * default: such a placeholder then fails the invocation with an {@link
     * IllegalArgumentException} naming the key and the agent, with or without {@code ?}.
     */
    public Builder secretsInInstructions(boolean allow) {
      this.secretsInInstructions = allow;
      return this;
    }

    public Builder beforeModelCallback(Callbacks.BeforeModelCallback callback) {
      this.beforeModelCallbacks.add(Objects.requireNonNull(callback));
      return this;
    }

    public Builder afterModelCallback(Callbacks.AfterModelCallback callback) {
      this.afterModelCallbacks.add(Objects.requireNonNull(callback));
      return this;
    }

    public Builder beforeToolCallback(Callbacks.BeforeToolCallback callback) {
      this.beforeToolCallbacks.add(Objects.requireNonNull(callback));
      return this;
    }

    public Builder afterToolCallback(Callbacks.AfterToolCallback callback) {
      this.afterToolCallbacks.add(Objects.requireNonNull(callback));
      return this;
    }

    /** ADK's before-tool callback shape, which also receives the invocation context. */
    public Builder beforeToolCallback(Callbacks.BeforeToolCallbackWithInvocation callback) {
      return beforeToolCallback(
          Objects.requireNonNull(callback, "callback").toBeforeToolCallback());
    }

    /** ADK's after-tool callback shape, which also receives the invocation context. */
    public Builder afterToolCallback(Callbacks.AfterToolCallbackWithInvocation callback) {
      return afterToolCallback(Objects.requireNonNull(callback, "callback").toAfterToolCallback());
    }

    /** ADK for Java's spelling: adds a synchronous before-model callback (see the guide). */
    public Builder beforeModelCallbackSync(Callbacks.BeforeModelCallbackSync callback) {
      return beforeModelCallback(Objects.requireNonNull(callback, "callback").toAsync());
    }

    /** ADK for Java's spelling: adds a synchronous after-model callback. */
    public Builder afterModelCallbackSync(Callbacks.AfterModelCallbackSync callback) {
      return afterModelCallback(Objects.requireNonNull(callback, "callback").toAsync());
    }

    /** ADK for Java's spelling: adds a synchronous before-tool callback. */
    public Builder beforeToolCallbackSync(Callbacks.BeforeToolCallbackSync callback) {
      return beforeToolCallback(Objects.requireNonNull(callback, "callback").toAsync());
    }

    /** ADK for Java's spelling: adds a synchronous after-tool callback. */
    public Builder afterToolCallbackSync(Callbacks.AfterToolCallbackSync callback) {
      return afterToolCallback(Objects.requireNonNull(callback, "callback").toAsync());
    }

    /**
     * ADK for Java's list form: replaces the before-model callbacks set so far with {@code
     * callbacks}, in order; each is a {@link Callbacks.BeforeModelCallback} or a {@link
     * Callbacks.BeforeModelCallbackSync}. Null or empty: none.
     *
     * @throws IllegalArgumentException naming the position of an element of another type
     */
    public Builder beforeModelCallback(@Nullable List<?> callbacks) {
      beforeModelCallbacks.clear();
      int i = 0;
      for (Object c : callbacks == null ? List.of() : callbacks) {
        if (c instanceof Callbacks.BeforeModelCallback async) {
          beforeModelCallback(async);
        } else if (c instanceof Callbacks.BeforeModelCallbackSync sync) {
          beforeModelCallbackSync(sync);
        } else {
          throw notACallback("beforeModelCallback", i, c);
        }
        i++;
      }
      return this;
    }

    /** ADK for Java's list form of {@link #afterModelCallback}: replaces those set so far. */
    public Builder afterModelCallback(@Nullable List<?> callbacks) {
      afterModelCallbacks.clear();
      int i = 0;
      for (Object c : callbacks == null ? List.of() : callbacks) {
        if (c instanceof Callbacks.AfterModelCallback async) {
          afterModelCallback(async);
        } else if (c instanceof Callbacks.AfterModelCallbackSync sync) {
          afterModelCallbackSync(sync);
        } else {
          throw notACallback("afterModelCallback", i, c);
        }
        i++;
      }
      return this;
    }

    /**
     * ADK for Java's list form of {@link #beforeToolCallback}: replaces those set so far; each is a
     * {@link Callbacks.BeforeToolCallback}, {@link Callbacks.BeforeToolCallbackWithInvocation}
     * (ADK's shape) or {@link Callbacks.BeforeToolCallbackSync}.
     */
    public Builder beforeToolCallback(@Nullable List<?> callbacks) {
      beforeToolCallbacks.clear();
      int i = 0;
      for (Object c : callbacks == null ? List.of() : callbacks) {
        if (c instanceof Callbacks.BeforeToolCallback async) {
          beforeToolCallback(async);
        } else if (c instanceof Callbacks.BeforeToolCallbackWithInvocation adk) {
          beforeToolCallback(adk);
        } else if (c instanceof Callbacks.BeforeToolCallbackSync sync) {
          beforeToolCallbackSync(sync);
        } else {
          throw notACallback("beforeToolCallback", i, c);
        }
        i++;
      }
      return this;
    }

    /** ADK for Java's list form of {@link #afterToolCallback}: replaces those set so far. */
    public Builder afterToolCallback(@Nullable List<?> callbacks) {
      afterToolCallbacks.clear();
      int i = 0;
      for (Object c : callbacks == null ? List.of() : callbacks) {
        if (c instanceof Callbacks.AfterToolCallback async) {
          afterToolCallback(async);
        } else if (c instanceof Callbacks.AfterToolCallbackWithInvocation adk) {
          afterToolCallback(adk);
        } else if (c instanceof Callbacks.AfterToolCallbackSync sync) {
          afterToolCallbackSync(sync);
        } else {
          throw notACallback("afterToolCallback", i, c);
        }
        i++;
      }
      return this;
    }

    @Override
    public LlmAgent build() {
      return new LlmAgent(this);
    }
  }
}
