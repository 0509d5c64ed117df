package dev.adk4j.agents;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.internal.telemetry.Telemetry;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmException;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.plugins.BasePlugin;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.opentelemetry.api.trace.Span;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.FlowableEmitter;
import io.reactivex.rxjava3.core.Scheduler;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * One run of an {@link LlmAgent}: the model and tool loop, on the subscribing thread.
 *
 * <p>Each step builds the request (instructions, tools, the branch's history), lets the
 * before-model callbacks answer in the model's place or calls the model, emits streamed partial
 * responses as they come (never stored), and stores and emits each complete response after the
 * after-model callbacks. If the last one calls functions, {@link ToolCalls} answers them in one
 * stored event; the loop goes on with another step unless that event transfers to another agent
 * (then {@link AgentTransfer#handOver} runs it and the run ends), skips summarization or escalates.
 * The run also ends when the model answers without calling a function, the invocation ends, or the
 * subscriber cancels.
 *
 * <p>The run pauses (ends, to be resumed by a later message) after a step whose model response
 * calls a long-running tool, or whose tools asked for a confirmation: then the agent stores an
 * {@code adk_request_confirmation} call ({@link Confirmations#request}). A run that resumes first
 * runs again the calls whose confirmation the message answers ({@link Confirmations#resume}).
 */
final class LlmFlow {

  /**
   * Where model calls run: a pool that never hands a thread to another task while the thread is
   * still busy. (An abandoned call, cancelled or timed out, may stay blocked in I/O that ignores
   * interrupts; {@code Schedulers.io()} would return such a thread to its cache at once and queue
   * the next task behind the blocked one.) Daemon threads, idle ones end after 60 s.
   */
  private static final Scheduler MODEL_CALLS =
      Schedulers.from(
          Executors.newCachedThreadPool(
              new java.util.concurrent.ThreadFactory() {
                private final AtomicInteger n = new AtomicInteger();

                @Override
                public Thread newThread(Runnable r) {
                  Thread t = new Thread(r, "adk4j-model-call-" + n.incrementAndGet());
                  t.setDaemon(true);
                  return t;
                }
              }),
          true);

  /**
   * Whether a tool class overrides {@link BaseTool#processLlmRequest} (BaseTool's does nothing).
   */
  private static final ClassValue<Boolean> PREPARES_REQUESTS =
      new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
          try {
            return type.getMethod("processLlmRequest", LlmRequest.Builder.class, ToolContext.class)
                    .getDeclaringClass()
                != BaseTool.class;
          } catch (NoSuchMethodException e) {
            return true; // cannot tell: called as before
          }
        }
      };

  private final LlmAgent agent;
  private final InvocationContext ctx;
  private final FlowableEmitter<Event> emitter;

  /** Set by a step that paused the invocation on a long-running call or a confirmation request. */
  private boolean paused;

  LlmFlow(LlmAgent agent, InvocationContext ctx, FlowableEmitter<Event> emitter) {
    this.agent = agent;
    this.ctx = ctx;
    this.emitter = emitter;
  }

  /** Runs the loop to its end, then completes the emitter, or fails it with what went wrong. */
  void run() {
    try {
      Event confirmed = resumeConfirmed();
      boolean first = confirmed != null;
      int maxSteps = agent.maxSteps().orElse(Integer.MAX_VALUE);
      int steps = 0;
      while (!emitter.isCancelled() && !ctx.endInvocation() && !paused) {
        Event toolResponse = first ? confirmed : step();
        if (!first) {
          steps++;
        }
        first = false;
        if (toolResponse == null || paused) {
          break;
        }
        EventActions actions = toolResponse.actions();
        if (actions.transferToAgent().isPresent()) {
          AgentTransfer.handOver(agent, actions.transferToAgent().get(), ctx, this::emit);
          break;
        }
        if (actions.skipSummarization().orElse(false) || actions.escalate().orElse(false)) {
          break;
        }
        if (steps >= maxSteps) {
          // ADK's maxSteps: the agent's run ends after its last allowed step, without an error.
          break;
        }
      }
      emitter.onComplete();
    } catch (Throwable t) {
      emitter.tryOnError(t);
    }
  }

  /** Passes on a stored (or partial) event, unless the subscriber has cancelled. */
  private void emit(Event e) {
    if (!emitter.isCancelled()) {
      emitter.onNext(e);
    }
  }

  /**
   * One model call and the tool calls it asks for.
   *
   * @return the stored function-response event, or null if the model called no function (or only
   *     long-running ones that stored nothing yet)
   */
  private @Nullable Event step() {
    CallbackContext cc = new CallbackContext(ctx);
    LlmRequest.Builder requestBuilder = buildRequest();
    // The plugins' hooks first: they may change the request, or answer in the model's place, which
    // skips the agent's own before-model callbacks.
    LlmResponse shortCircuit = null;
    // indexed: no iterator per loop (these lists are usually empty)
    for (int pi = 0; pi < ctx.plugins().size(); pi++) {
      BasePlugin p = ctx.plugins().get(pi);
      shortCircuit = p.beforeModelCallback(cc, requestBuilder).blockingGet();
      if (shortCircuit != null) {
        break;
      }
    }
    LlmRequest request = requestBuilder.build();
    if (shortCircuit == null) {
      // indexed: no iterator per loop (these lists are usually empty)
      for (int ci = 0; ci < agent.beforeModelCallbacks().size(); ci++) {
        Callbacks.BeforeModelCallback cb = agent.beforeModelCallbacks().get(ci);
        shortCircuit = cb.call(cc, request).blockingGet();
        if (shortCircuit != null) {
          break;
        }
      }
    }
    List<LlmResponse> responses = new ArrayList<>();
    Span modelSpan = null;
    if (shortCircuit != null) {
      responses.add(shortCircuit);
    } else {
      ctx.incrementLlmCallsCount();
      boolean stream = ctx.runConfig().streamingMode() == RunConfig.StreamingMode.SSE;
      BaseLlm llm = agent.resolvedModel();
      modelSpan =
          Telemetry.startModelCall(ctx.telemetry(), agent.name(), llm.model(), ctx.invocationId());
      boolean answered = false; // the call gave (or a callback recovered) what comes next
      try {
        // A model whose flow may block its subscriber (a blocking HTTP call), and every streamed
        // call, runs on a thread of its own: a call that hangs can be abandoned at its deadline,
        // and each streamed piece is handed over as it arrives; this thread emits it at once. A
        // model that never blocks is called right here, with no thread hand-off.
        Duration timeout = ctx.runConfig().llmCallTimeout();
        Flowable<LlmResponse> call = llm.generateContent(request, stream);
        Flows.forEach(
            stream || llm.blocksSubscriber() ? call.subscribeOn(MODEL_CALLS) : call,
            timeout,
            ctx.timerScheduler().orElse(null),
            () -> timedOut(llm, timeout),
            r -> {
              if (r.partial().orElse(false)) {
                emit(agent.newEvent(ctx).content(r.content().orElse(null)).partial(true).build());
              } else {
                responses.add(r);
              }
            });
        answered = true;
      } catch (Exception modelError) {
        // A model's Flowable may fail with a checked exception (an IOException of its HTTP
        // client): the plugins see it as it is, as in ADK; if none recovers, it is a model error.
        Telemetry.fail(modelSpan, modelError);
        LlmResponse recovered = null;
        for (BasePlugin p : ctx.plugins()) {
          recovered = p.onModelErrorCallback(cc, request.toBuilder(), modelError).blockingGet();
          if (recovered != null) {
            break;
          }
        }
        if (recovered == null) {
          // Then the agent's own callbacks (ADK's order: plugins first).
          for (Callbacks.OnModelErrorCallback cb : agent.canonicalOnModelErrorCallbacks()) {
            recovered = cb.call(cc, request, modelError).blockingGet();
            if (recovered != null) {
              break;
            }
          }
        }
        if (recovered == null) {
          if (modelError instanceof RuntimeException unchecked) {
            throw unchecked;
          }
          throw new LlmException(
              llm.model(),
              0,
              llm.model()
                  + " failed: "
                  + modelError.getClass().getSimpleName()
                  + ": "
                  + modelError.getMessage(),
              modelError);
        }
        responses.add(recovered);
        answered = true;
      } finally {
        if (!answered || responses.isEmpty()) { // failed, or gave nothing: no event to name
          Telemetry.modelCalled(modelSpan, request, null, null);
          modelSpan.end();
        }
      }
    }
    Event last = null;
    try {
      for (LlmResponse r : responses) {
        last = emitModelResponse(cc, r, shortCircuit != null);
      }
    } finally {
      // The model call's span ends once its event is stored, so that it can name it (the dev UI
      // finds an event's request and response by that id).
      if (modelSpan != null && !responses.isEmpty()) {
        Telemetry.modelCalled(modelSpan, request, responses.get(responses.size() - 1), last);
        modelSpan.end();
      }
    }
    if (last == null) {
      return null;
    }
    List<FunctionCall> calls = last.functionCalls();
    if (calls.isEmpty()) {
      return null;
    }
    Event stored = ToolCalls.run(agent, ctx, calls);
    if (last.hasPendingLongRunningToolCall()) {
      paused = true;
    }
    answered(stored, calls);
    return stored;
  }

  /**
   * Emits the function-response event of {@code calls} (if one was stored); if their tools asked
   * for confirmations, stores and emits the request and pauses.
   */
  private void answered(@Nullable Event response, List<FunctionCall> calls) {
    if (response == null) {
      return;
    }
    emit(response);
    Event request = Confirmations.request(agent, ctx, response, calls);
    if (request != null) {
      emit(ctx.persist(request));
      paused = true;
    }
  }

  /**
   * When the invocation resumes with a person's answers to this agent's confirmation requests: runs
   * the confirmed calls again and returns their stored response (null if none was stored or there
   * was nothing to run). Pauses again if a tool asks again, or if one of them is long-running.
   */
  private @Nullable Event resumeConfirmed() {
    Confirmations.Resumed resumed = Confirmations.resume(agent, ctx);
    if (resumed == null) {
      return null;
    }
    answered(resumed.response(), resumed.calls());
    for (FunctionCall call : resumed.calls()) {
      if (ToolCalls.isLongRunning(agent, ctx, call)) {
        paused = true;
      }
    }
    return resumed.response();
  }

  /**
   * Stores and emits the event of a complete response, after the after-model callbacks (not for a
   * response a before-model callback gave), with the output key written if it is the final answer.
   */
  private Event emitModelResponse(CallbackContext cc, LlmResponse response, boolean fromCallback) {
    LlmResponse r = response;
    if (!fromCallback) {
      LlmResponse replaced = null;
      // indexed: no iterator per loop (these lists are usually empty)
      for (int pi = 0; pi < ctx.plugins().size(); pi++) {
        BasePlugin p = ctx.plugins().get(pi);
        replaced = p.afterModelCallback(cc, r).blockingGet();
        if (replaced != null) {
          break;
        }
      }
      if (replaced == null) {
        // indexed: no iterator per loop (these lists are usually empty)
        for (int ci = 0; ci < agent.afterModelCallbacks().size(); ci++) {
          Callbacks.AfterModelCallback cb = agent.afterModelCallbacks().get(ci);
          replaced = cb.call(cc, r).blockingGet();
          if (replaced != null) {
            break;
          }
        }
      }
      if (replaced != null) {
        r = replaced;
      }
    }
    Content content = withCallIds(r.content().orElse(null), ctx.idSource());
    Event.Builder event =
        agent
            .newEvent(ctx)
            .content(content)
            .longRunningToolIds(longRunningCalls(content))
            .turnComplete(r.turnComplete().orElse(null))
            .errorCode(r.errorCode().orElse(null))
            .errorMessage(r.errorMessage().orElse(null))
            .usageMetadata(r.usageMetadata().orElse(null));
    withResponseMetadata(event, r, ctx.runConfig());
    Event draft = event.build();
    agent.recordOutput(cc, draft);
    // Built again only if the step recorded actions (callbacks' writes, the output key).
    Event stored =
        ctx.persist(cc.hasActions() ? draft.toBuilder().actions(cc.actions()).build() : draft);
    emit(stored);
    return stored;
  }

  /**
   * Copies what the model reported about {@code r} (finish reason, grounding, citations, log
   * probabilities, model version, interruption, transcriptions, custom metadata) into {@code
   * event}, with the run's {@link RunConfig#customMetadata()} after the response's own entries.
   */
  static Event.Builder withResponseMetadata(Event.Builder event, LlmResponse r, RunConfig rc) {
    // isPresent/get, not ifPresent(event::x): no method reference bound per field and response
    if (r.finishReason().isPresent()) {
      event.finishReason(r.finishReason().get());
    }
    if (r.groundingMetadata().isPresent()) {
      event.groundingMetadata(r.groundingMetadata().get());
    }
    if (r.citationMetadata().isPresent()) {
      event.citationMetadata(r.citationMetadata().get());
    }
    if (r.avgLogprobs().isPresent()) {
      event.avgLogprobs(r.avgLogprobs().get());
    }
    if (r.modelVersion().isPresent()) {
      event.modelVersion(r.modelVersion().get());
    }
    if (r.interrupted().isPresent()) {
      event.interrupted(r.interrupted().get());
    }
    if (r.inputTranscription().isPresent()) {
      event.inputTranscription(r.inputTranscription().get());
    }
    if (r.outputTranscription().isPresent()) {
      event.outputTranscription(r.outputTranscription().get());
    }
    List<com.google.genai.types.CustomMetadata> own = r.customMetadata().orElse(null);
    if (rc.customMetadata().isEmpty()) {
      if (own != null) {
        event.customMetadata(own);
      }
    } else {
      List<com.google.genai.types.CustomMetadata> all = new ArrayList<>();
      if (own != null) {
        all.addAll(own);
      }
      all.addAll(dev.adk4j.internal.CustomMetadataEntries.of(rc.customMetadata()));
      event.customMetadata(all);
    }
    return event;
  }

  LlmRequest.Builder buildRequest() {
    LlmRequest.Builder b = LlmRequest.builder().model(modelNameForRequest());
    // Instructions are read, never written: providers get a read-only context.
    // An instruction without placeholders or provider is taken as it is (no Single to wait for).
    @Nullable ReadonlyContext readonly = null;
    BaseAgent root = agent.rootAgent();
    if (root instanceof LlmAgent rootLlm) {
      String global = rootLlm.staticGlobalInstruction();
      if (global == null) {
        readonly = new ReadonlyContext(ctx);
        global = rootLlm.canonicalGlobalInstruction(readonly).blockingGet();
      }
      b.appendInstruction(global);
    }
    String instruction = agent.staticInstruction();
    if (instruction == null) {
      instruction =
          agent
              .canonicalInstruction(readonly != null ? readonly : new ReadonlyContext(ctx))
              .blockingGet();
    }
    b.appendInstruction(instruction);
    List<BaseAgent> targets = AgentTransfer.targets(agent);
    if (!targets.isEmpty()) {
      b.appendInstruction(AgentTransfer.instruction(targets));
    }
    List<BaseTool> tools = agent.listTools(ctx);
    for (BaseTool t : tools) {
      t.declaration().ifPresent(b::addFunctionDeclaration);
    }
    if (!targets.isEmpty()) {
      b.addFunctionDeclaration(AgentTransfer.declaration());
    }
    b.config(agent.requestConfig());
    b.contents(
        Histories.contentsFor(
            ctx,
            agent.name(),
            agent.includeContents(),
            agent.historyWindow().orElse(null),
            agent.histories));
    for (BaseTool t : tools) {
      if (!PREPARES_REQUESTS.get(t.getClass())) {
        continue; // BaseTool's processLlmRequest: nothing to do, no context to make
      }
      ToolContext context = new ToolContext(ctx, null);
      t.processLlmRequest(b, context).blockingAwait();
      if (context.hasActions()) {
        throw new IllegalStateException(
            "Tool '"
                + t.name()
                + "' of agent '"
                + agent.name()
                + "' wrote state or actions while preparing a model request (state keys "
                + context.actions().stateDelta().keySet()
                + "); processLlmRequest may only read");
      }
    }
    return b;
  }

  private @Nullable String modelNameForRequest() {
    try {
      return agent.resolvedModel().model();
    } catch (RuntimeException e) {
      return agent.modelName();
    }
  }

  /**
   * The error of a model call that produced no response for {@code timeout} (before the first one,
   * or between two). The model's flow is cancelled then: a thread blocked in it stays blocked until
   * its own I/O times out or returns, but the invocation goes on without it.
   */
  private LlmException timedOut(BaseLlm llm, Duration timeout) {
    return new LlmException(
        llm.model(),
        0,
        "Model '"
            + llm.model()
            + "' of agent '"
            + agent.name()
            + "' gave no response within "
            + Math.max(1, timeout.toMillis())
            + " ms (RunConfig.llmCallTimeout); the call was abandoned",
        new TimeoutException());
  }

  /** The ids of the calls of long-running tools in {@code content}; null if there are none. */
  private java.util.@Nullable Set<String> longRunningCalls(@Nullable Content content) {
    if (content == null) {
      return null;
    }
    java.util.Set<String> ids = null;
    for (Part p : content.parts().orElse(List.of())) {
      FunctionCall call = p.functionCall().orElse(null);
      if (call != null && call.id().isPresent() && ToolCalls.isLongRunning(agent, ctx, call)) {
        if (ids == null) {
          ids = new java.util.LinkedHashSet<>();
        }
        ids.add(call.id().get());
      }
    }
    return ids;
  }

  /** Gives every function call without an id one from {@code ids}, so its response can name it. */
  static @Nullable Content withCallIds(@Nullable Content content, IdSource ids) {
    if (content == null || content.parts().isEmpty()) {
      return content;
    }
    List<Part> parts = new ArrayList<>(content.parts().get().size());
    boolean changed = false;
    for (Part p : content.parts().get()) {
      if (p.functionCall().isPresent() && p.functionCall().get().id().isEmpty()) {
        FunctionCall call = p.functionCall().get().toBuilder().id(ids.newFunctionCallId()).build();
        parts.add(p.toBuilder().functionCall(call).build());
        changed = true;
      } else {
        parts.add(p);
      }
    }
    return changed ? content.toBuilder().parts(parts).build() : content;
  }
}
