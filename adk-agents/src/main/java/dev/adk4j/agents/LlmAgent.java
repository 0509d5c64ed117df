package dev.adk4j.agents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.Part;
import com.google.genai.types.Schema;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmException;
import dev.adk4j.models.LlmRegistry;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.sessions.GetSessionConfig;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionNotFoundException;
import dev.adk4j.sessions.StateConflictException;
import dev.adk4j.state.Json;
import dev.adk4j.state.Scope;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.BackpressureStrategy;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.FlowableEmitter;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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

  /**
   * Where model calls run: a pool that never hands a thread to another task while the thread is
   * still busy. (An abandoned call, cancelled or timed out, may stay blocked in I/O that ignores
   * interrupts; {@code Schedulers.io()} would return such a thread to its cache at once and queue
   * the next task behind the blocked one.) Daemon threads, idle ones end after 60 s.
   */
  private static final io.reactivex.rxjava3.core.Scheduler MODEL_CALLS =
      Schedulers.from(
          java.util.concurrent.Executors.newCachedThreadPool(
              new java.util.concurrent.ThreadFactory() {
                private final java.util.concurrent.atomic.AtomicInteger n =
                    new java.util.concurrent.atomic.AtomicInteger();

                @Override
                public Thread newThread(Runnable r) {
                  Thread t = new Thread(r, "adk4j-model-call-" + n.incrementAndGet());
                  t.setDaemon(true);
                  return t;
                }
              }),
          true);

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
  private final @Nullable GenerateContentConfig generateContentConfig;
  private final List<BaseTool> tools;
  private final IncludeContents includeContents;
  private final @Nullable Integer historyWindow;
  private final boolean disallowTransferToParent;
  private final List<Callbacks.BeforeModelCallback> beforeModelCallbacks;
  private final List<Callbacks.AfterModelCallback> afterModelCallbacks;
  private final List<Callbacks.BeforeToolCallback> beforeToolCallbacks;
  private final List<Callbacks.AfterToolCallback> afterToolCallbacks;

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
    this.generateContentConfig = b.generateContentConfig;
    this.tools = List.copyOf(b.tools);
    this.includeContents = b.includeContents;
    this.historyWindow = b.historyWindow;
    this.disallowTransferToParent = b.disallowTransferToParent;
    this.beforeModelCallbacks = List.copyOf(b.beforeModelCallbacks);
    this.afterModelCallbacks = List.copyOf(b.afterModelCallbacks);
    this.beforeToolCallbacks = List.copyOf(b.beforeToolCallbacks);
    this.afterToolCallbacks = List.copyOf(b.afterToolCallbacks);
    java.util.Set<String> names = new java.util.HashSet<>();
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

  public List<BaseTool> tools() {
    return tools;
  }

  public IncludeContents includeContents() {
    return includeContents;
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

  @Override
  protected Flowable<Event> runAsyncImpl(InvocationContext context) {
    return Flowable.create(
        emitter -> new Flow(context, emitter).run(), BackpressureStrategy.BUFFER);
  }

  /** One run of this agent: the model and tool loop. Runs on the subscribing thread. */
  private final class Flow {
    private final InvocationContext ctx;
    private final FlowableEmitter<Event> emitter;

    Flow(InvocationContext ctx, FlowableEmitter<Event> emitter) {
      this.ctx = ctx;
      this.emitter = emitter;
    }

    void run() {
      try {
        while (!emitter.isCancelled() && !ctx.endInvocation()) {
          Step step = step();
          if (step.transferTo != null) {
            BaseAgent target = findTransferTarget(step.transferTo);
            Flows.forEach(target.runAsync(ctx), this::emitStored);
            break;
          }
          if (step.done) {
            break;
          }
        }
        emitter.onComplete();
      } catch (Throwable t) {
        emitter.tryOnError(t);
      }
    }

    private void emitStored(Event e) {
      if (!emitter.isCancelled()) {
        emitter.onNext(e);
      }
    }

    private Step step() {
      CallbackContext cc = new CallbackContext(ctx);
      LlmRequest request = buildRequest();
      LlmResponse shortCircuit = null;
      for (Callbacks.BeforeModelCallback cb : beforeModelCallbacks) {
        shortCircuit = cb.call(cc, request).blockingGet();
        if (shortCircuit != null) {
          break;
        }
      }
      List<LlmResponse> responses = new ArrayList<>();
      if (shortCircuit != null) {
        responses.add(shortCircuit);
      } else {
        ctx.incrementLlmCallsCount();
        boolean stream = ctx.runConfig().streamingMode() == RunConfig.StreamingMode.SSE;
        BaseLlm llm = resolvedModel();
        // The model's flow runs on a thread of its own, so a model that produces its responses
        // while being subscribed to (a blocking HTTP read) still hands each streamed piece over
        // as it arrives; this thread emits it at once.
        Flows.forEach(
            withTimeout(
                llm.generateContent(request, stream).subscribeOn(MODEL_CALLS),
                llm,
                ctx.runConfig().llmCallTimeout()),
            r -> {
              if (r.partial().orElse(false)) {
                emitStored(newEvent(ctx).content(r.content().orElse(null)).partial(true).build());
              } else {
                responses.add(r);
              }
            });
      }
      Event last = null;
      for (LlmResponse r : responses) {
        last = emitModelResponse(cc, r, shortCircuit != null);
      }
      if (last == null) {
        return Step.finished();
      }
      List<FunctionCall> calls = last.functionCalls();
      if (calls.isEmpty()) {
        return Step.finished();
      }
      return runTools(calls);
    }

    private Event emitModelResponse(
        CallbackContext cc, LlmResponse response, boolean fromCallback) {
      LlmResponse r = response;
      if (!fromCallback) {
        for (Callbacks.AfterModelCallback cb : afterModelCallbacks) {
          LlmResponse replaced = cb.call(cc, r).blockingGet();
          if (replaced != null) {
            r = replaced;
            break;
          }
        }
      }
      Content content = withCallIds(r.content().orElse(null));
      Event.Builder event =
          newEvent(ctx)
              .content(content)
              .turnComplete(r.turnComplete().orElse(null))
              .errorCode(r.errorCode().orElse(null))
              .errorMessage(r.errorMessage().orElse(null));
      Event draft = event.build();
      recordOutput(cc, draft);
      Event stored = ctx.persist(draft.toBuilder().actions(cc.actions()).build());
      emitStored(stored);
      return stored;
    }

    private Step runTools(List<FunctionCall> calls) {
      int retriesLeft = ctx.runConfig().stateConflictRetries();
      while (true) {
        List<Part> parts = new ArrayList<>();
        List<ToolContext> contexts = new ArrayList<>();
        EventActions actions = EventActions.empty();
        for (FunctionCall call : calls) {
          String toolName = call.name().orElse("");
          ToolContext tc = new ToolContext(ctx, call.id().orElse(null));
          contexts.add(tc);
          Map<String, Object> args = new LinkedHashMap<>(call.args().orElse(Map.of()));
          Map<String, Object> result = callTool(toolName, args, tc);
          parts.add(
              Part.builder()
                  .functionResponse(
                      FunctionResponse.builder()
                          .id(call.id().orElse(null))
                          .name(toolName)
                          .response(result)
                          .build())
                  .build());
          actions = actions.merge(tc.actions());
        }
        if (actions.transferToAgent().isPresent()) {
          // A tool's own transferToAgent naming no agent fails the step before it is stored.
          findTransferTarget(actions.transferToAgent().get());
        }
        Event response =
            newEvent(ctx)
                .content(Content.builder().role("user").parts(parts).build())
                .actions(actions)
                .build();
        Event stored;
        try {
          stored = ctx.persist(response);
        } catch (StateConflictException conflict) {
          if (retriesLeft-- <= 0) {
            throw conflict;
          }
          log.info(
              "Tool calls of agent '{}' conflicted on state key '{}'; re-running them on fresh"
                  + " state ({} retries left)",
              name(),
              conflict.key(),
              retriesLeft);
          for (ToolContext tc : contexts) {
            tc.state().discard();
          }
          refreshStoredState(ctx);
          continue;
        }
        emitStored(stored);
        if (actions.transferToAgent().isPresent()) {
          return Step.transfer(actions.transferToAgent().get());
        }
        if (actions.skipSummarization().orElse(false) || actions.escalate().orElse(false)) {
          return Step.finished();
        }
        return Step.again();
      }
    }

    private Map<String, Object> callTool(
        String toolName, Map<String, Object> args, ToolContext tc) {
      BaseTool tool = findTool(toolName);
      if (tool == null) {
        return Map.of(
            "error",
            "Tool '"
                + toolName
                + "' is not available to agent '"
                + name()
                + "'; available: "
                + toolNames());
      }
      try {
        Map<String, Object> result = null;
        for (Callbacks.BeforeToolCallback cb : beforeToolCallbacks) {
          result = cb.call(tool, args, tc).blockingGet();
          if (result != null) {
            break;
          }
        }
        if (result == null) {
          result = tool.runAsync(args, tc).blockingGet();
          for (Callbacks.AfterToolCallback cb : afterToolCallbacks) {
            Map<String, Object> replaced = cb.call(tool, args, tc, result).blockingGet();
            if (replaced != null) {
              result = replaced;
              break;
            }
          }
        }
        return result == null ? Map.of() : result;
      } catch (RuntimeException e) {
        // A failed tool's state writes are dropped: only its error response is stored.
        tc.state().discard();
        log.warn("Tool '{}' of agent '{}' failed: {}", toolName, name(), e.toString());
        return Map.of("error", "Tool '" + toolName + "' failed: " + e.getMessage());
      }
    }

    private LlmRequest buildRequest() {
      LlmRequest.Builder b = LlmRequest.builder().model(modelNameForRequest());
      // Instructions are read, never written: providers get a read-only context.
      ReadonlyContext readonly = new ReadonlyContext(ctx);
      BaseAgent root = rootAgent();
      if (root instanceof LlmAgent) {
        b.appendInstruction(((LlmAgent) root).canonicalGlobalInstruction(readonly).blockingGet());
      }
      b.appendInstruction(canonicalInstruction(readonly).blockingGet());
      List<BaseAgent> targets = transferTargets();
      if (!targets.isEmpty()) {
        b.appendInstruction(transferInstruction(targets));
      }
      for (BaseTool t : tools) {
        t.declaration().ifPresent(b::addFunctionDeclaration);
      }
      if (!targets.isEmpty()) {
        b.addFunctionDeclaration(transferDeclaration());
      }
      GenerateContentConfig.Builder config =
          generateContentConfig == null
              ? GenerateContentConfig.builder()
              : generateContentConfig.toBuilder();
      if (outputSchema != null) {
        config.responseMimeType("application/json").responseSchema(outputSchema);
      }
      b.config(config.build());
      b.contents(Histories.contentsFor(ctx, name(), includeContents, historyWindow));
      return b.build();
    }

    private @Nullable String modelNameForRequest() {
      try {
        return resolvedModel().model();
      } catch (RuntimeException e) {
        return modelName;
      }
    }
  }

  /**
   * {@code responses} failing with an {@link LlmException} when the model produces no response for
   * {@code timeout} (before the first one, or between two); zero means no limit. The model's flow
   * is cancelled then: a thread blocked in it stays blocked until its own I/O times out or returns,
   * but the invocation goes on without it.
   */
  private Flowable<LlmResponse> withTimeout(
      Flowable<LlmResponse> responses, BaseLlm llm, java.time.Duration timeout) {
    if (timeout.isZero()) {
      return responses;
    }
    long millis = Math.max(1, timeout.toMillis());
    return responses.timeout(
        millis,
        java.util.concurrent.TimeUnit.MILLISECONDS,
        Flowable.defer(
            () ->
                Flowable.error(
                    new LlmException(
                        llm.model(),
                        0,
                        "Model '"
                            + llm.model()
                            + "' of agent '"
                            + name()
                            + "' gave no response within "
                            + millis
                            + " ms (RunConfig.llmCallTimeout); the call was abandoned",
                        new java.util.concurrent.TimeoutException()))));
  }

  /**
   * Replaces the stored keys of the invocation's live state (everything but {@code temp:}) with
   * their values in storage, so that a retried step reads what other writers stored meanwhile.
   */
  private static void refreshStoredState(InvocationContext ctx) {
    Session fresh =
        ctx.sessionService()
            .getSession(
                ctx.appName(),
                ctx.userId(),
                ctx.session().id(),
                Optional.of(GetSessionConfig.builder().numRecentEvents(0).build()))
            .blockingGet();
    if (fresh == null) {
      throw new SessionNotFoundException(ctx.appName(), ctx.userId(), ctx.session().id());
    }
    Map<String, Object> live = ctx.session().state();
    live.keySet().removeIf(k -> Scope.of(k) != Scope.TEMP && !fresh.state().containsKey(k));
    fresh.state().forEach(live::put);
  }

  /** Gives every function call without an id one, so its response can name it. */
  private static @Nullable Content withCallIds(@Nullable Content content) {
    if (content == null || content.parts().isEmpty()) {
      return content;
    }
    List<Part> parts = new ArrayList<>();
    boolean changed = false;
    for (Part p : content.parts().get()) {
      if (p.functionCall().isPresent() && p.functionCall().get().id().isEmpty()) {
        FunctionCall call =
            p.functionCall().get().toBuilder().id("adk-" + java.util.UUID.randomUUID()).build();
        parts.add(p.toBuilder().functionCall(call).build());
        changed = true;
      } else {
        parts.add(p);
      }
    }
    return changed ? content.toBuilder().parts(parts).build() : content;
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
  private void recordOutput(CallbackContext cc, Event event) {
    if (outputKey == null
        || !event.author().equals(name())
        || !event.finalResponse()
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
      return Json.mapper().readValue(text, Object.class);
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

  private @Nullable BaseTool findTool(String toolName) {
    for (BaseTool t : tools) {
      if (t.name().equals(toolName)) {
        return t;
      }
    }
    if (TRANSFER_TO_AGENT.equals(toolName) && !transferTargets().isEmpty()) {
      return new TransferTool();
    }
    return null;
  }

  private List<String> toolNames() {
    List<String> names = new ArrayList<>();
    tools.forEach(t -> names.add(t.name()));
    if (!transferTargets().isEmpty()) {
      names.add(TRANSFER_TO_AGENT);
    }
    return names;
  }

  /** The agents this one may transfer to: its sub-agents, then its parent unless disallowed. */
  private List<BaseAgent> transferTargets() {
    List<BaseAgent> targets = new ArrayList<>(subAgents());
    if (!disallowTransferToParent && parentAgent().isPresent()) {
      if (parentAgent().get() instanceof LlmAgent) {
        targets.add(parentAgent().get());
      }
    }
    return targets;
  }

  private BaseAgent findTransferTarget(String agentName) {
    BaseAgent target = transferTarget(agentName);
    if (target == null) {
      throw new IllegalArgumentException(unknownTransferTarget(agentName));
    }
    return target;
  }

  /** The agent named {@code agentName}: a transfer target, else any agent of the tree; or null. */
  private @Nullable BaseAgent transferTarget(String agentName) {
    for (BaseAgent a : transferTargets()) {
      if (a.name().equals(agentName)) {
        return a;
      }
    }
    return rootAgent().findAgent(agentName).orElse(null);
  }

  private String unknownTransferTarget(String agentName) {
    List<String> names = new ArrayList<>();
    transferTargets().forEach(a -> names.add(a.name()));
    return "Agent '"
        + name()
        + "' cannot transfer to unknown agent '"
        + agentName
        + "'; it can transfer to: "
        + String.join(", ", names);
  }

  private static String transferInstruction(List<BaseAgent> targets) {
    StringBuilder sb =
        new StringBuilder(
            "You can hand the conversation to another agent by calling "
                + TRANSFER_TO_AGENT
                + " with its name when it is better suited to answer. Agents:");
    for (BaseAgent a : targets) {
      sb.append("\n- ").append(a.name());
      if (!a.description().isEmpty()) {
        sb.append(": ").append(a.description());
      }
    }
    return sb.toString();
  }

  private static FunctionDeclaration transferDeclaration() {
    return FunctionDeclaration.builder()
        .name(TRANSFER_TO_AGENT)
        .description("Transfers the conversation to the named agent.")
        .parameters(
            Schema.builder()
                .type("OBJECT")
                .properties(
                    Map.of(
                        "agent_name",
                        Schema.builder()
                            .type("STRING")
                            .description("The name of the agent to transfer to.")
                            .build()))
                .required(List.of("agent_name"))
                .build())
        .build();
  }

  /**
   * The built-in transfer tool of this agent: records the target in the call's actions. An agent
   * name that is not in the agent tree gets an error response naming it (and no transfer), so the
   * model can pick a valid one; the stored history never claims a transfer that did not happen.
   */
  private final class TransferTool extends BaseTool {

    private TransferTool() {
      super(TRANSFER_TO_AGENT, "Transfers the conversation to the named agent.");
    }

    @Override
    public Optional<FunctionDeclaration> declaration() {
      return Optional.of(transferDeclaration());
    }

    @Override
    public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext context) {
      Object target = args.get("agent_name");
      if (!(target instanceof String) || ((String) target).isEmpty()) {
        return Single.just(Map.of("error", "transfer_to_agent needs a string agent_name"));
      }
      if (transferTarget((String) target) == null) {
        String error = unknownTransferTarget((String) target);
        log.warn("{}", error);
        return Single.just(Map.of("error", error));
      }
      context.transferToAgent((String) target);
      return Single.just(Map.of("transferred_to", target));
    }
  }

  /** What one step decided. */
  private static final class Step {
    final boolean done;
    final @Nullable String transferTo;

    private Step(boolean done, @Nullable String transferTo) {
      this.done = done;
      this.transferTo = transferTo;
    }

    static Step finished() {
      return new Step(true, null);
    }

    static Step again() {
      return new Step(false, null);
    }

    static Step transfer(String agent) {
      return new Step(true, Objects.requireNonNull(agent));
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
    private IncludeContents includeContents = IncludeContents.DEFAULT;
    private @Nullable Integer historyWindow;
    private boolean disallowTransferToParent;
    private final List<Callbacks.BeforeModelCallback> beforeModelCallbacks = new ArrayList<>();
    private final List<Callbacks.AfterModelCallback> afterModelCallbacks = new ArrayList<>();
    private final List<Callbacks.BeforeToolCallback> beforeToolCallbacks = new ArrayList<>();
    private final List<Callbacks.AfterToolCallback> afterToolCallbacks = new ArrayList<>();

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

    @Override
    public LlmAgent build() {
      return new LlmAgent(this);
    }
  }
}
