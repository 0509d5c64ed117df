package dev.adk4j.agents;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import com.google.genai.types.GroundingMetadata;
import com.google.genai.types.Part;
import com.google.genai.types.Transcription;
import dev.adk4j.events.Event;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.BaseLlmConnection;
import dev.adk4j.models.LlmException;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import io.reactivex.rxjava3.core.FlowableEmitter;
import io.reactivex.rxjava3.disposables.Disposable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.jspecify.annotations.Nullable;

/**
 * One live run of an {@link LlmAgent} ({@link LlmAgent#runLive}): opens the model's live connection
 * with the agent's instructions, tools and the run config's live settings, sends the branch's
 * history, then, on the subscribing thread, handles one thing at a time from the caller's {@link
 * LiveRequestQueue} and from the model, until the queue closes or the connection fails.
 *
 * <ul>
 *   <li>A content from the queue is stored as the user's event (not emitted), then sent.
 *   <li>Realtime input (a blob) is sent, not stored.
 *   <li>Pieces of a model turn are emitted as partial events (never stored); when the turn ends,
 *       its text (consecutive text parts merged, thought text apart) and other non-binary parts are
 *       stored and emitted as one event with {@code turnComplete} true, the output key written as
 *       for a turn's final answer. Inline data (the model's audio) is only in the partial events.
 *   <li>Transcriptions (asked for by {@link RunConfig#inputAudioTranscription()} and {@link
 *       RunConfig#outputAudioTranscription()}) are emitted piece by piece as partial events (the
 *       person's as the user's, the model's as the agent's); the person's whole transcription is
 *       stored as a user event when the model says it is finished or the model's turn ends, the
 *       model's with its turn's event (which also says {@code interrupted} if the person
 *       interrupted it).
 *   <li>Function calls are stored and emitted as the model's event, answered through the normal
 *       tool path ({@link ToolCalls}: callbacks, plugins, tracked state, one stored response event
 *       carrying the tools' state delta), and the answers are sent back to the model.
 * </ul>
 *
 * <p>Model callbacks and agent transfer do not run in a live run; tool callbacks and plugins do,
 * and the agent's before- and after-agent callbacks run around it ({@link LlmAgent#runLive}).
 */
final class LiveFlow {

  /** The caller's queue ended (completed without a close request). */
  private static final Object QUEUE_ENDED = new Object();

  /** The model's responses ended: the connection was closed. */
  private static final Object CONNECTION_ENDED = new Object();

  /** The subscriber cancelled the run. */
  private static final Object CANCELLED = new Object();

  /** A failure of the queue or of the connection. */
  private record Failure(Throwable error) {}

  private final LlmAgent agent;
  private final InvocationContext ctx;
  private final LiveRequestQueue queue;
  private final FlowableEmitter<Event> emitter;
  private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();

  /** The parts of the model turn under way. */
  private final List<Part> turn = new ArrayList<>();

  private @Nullable GenerateContentResponseUsageMetadata usage;

  /** The transcription of the person's speech since it was last stored. */
  private final StringBuilder heard = new StringBuilder();

  /** The transcription of the model turn under way. */
  private final StringBuilder said = new StringBuilder();

  private @Nullable GroundingMetadata grounding;
  private boolean interrupted;

  LiveFlow(
      LlmAgent agent,
      InvocationContext ctx,
      LiveRequestQueue queue,
      FlowableEmitter<Event> emitter) {
    this.agent = agent;
    this.ctx = ctx;
    this.queue = queue;
    this.emitter = emitter;
  }

  void run() {
    BaseLlmConnection connection = null;
    Disposable requests = null;
    Disposable responses = null;
    try {
      emitter.setCancellable(() -> inbox.add(CANCELLED));
      LlmRequest request = request();
      BaseLlm llm = agent.resolvedModel();
      connection = llm.connect(request);
      responses =
          connection
              .receive()
              .subscribe(
                  inbox::add, e -> inbox.add(new Failure(e)), () -> inbox.add(CONNECTION_ENDED));
      connection.sendHistory(request.contents()).blockingAwait();
      requests =
          queue
              .get()
              .subscribe(inbox::add, e -> inbox.add(new Failure(e)), () -> inbox.add(QUEUE_ENDED));
      while (true) {
        Object item = inbox.take();
        if (item == QUEUE_ENDED || item == CANCELLED) {
          break;
        }
        if (item == CONNECTION_ENDED) {
          throw new LlmException(
              llm.model(),
              0,
              "Live connection to model '" + llm.model() + "' ended while the live run was open",
              null);
        }
        if (item instanceof Failure f) {
          throw f.error();
        }
        if (item instanceof LiveRequest r) {
          if (r.shouldClose()) {
            break;
          }
          send(connection, r);
        } else if (item instanceof LlmResponse r) {
          received(connection, r);
        }
      }
      emitter.onComplete();
    } catch (Throwable t) {
      emitter.tryOnError(t);
    } finally {
      if (requests != null) {
        requests.dispose();
      }
      if (responses != null) {
        responses.dispose();
      }
      if (connection != null) {
        connection.close();
      }
    }
  }

  /** The agent's request, as a turn's first step builds it, with the run's live settings. */
  private LlmRequest request() {
    LlmRequest built = new LlmFlow(agent, ctx, emitter).buildRequest().build();
    RunConfig rc = ctx.runConfig();
    var config = built.config().toBuilder();
    if (!rc.responseModalities().isEmpty()) {
      List<String> modalities = new ArrayList<>();
      rc.responseModalities().forEach(m -> modalities.add(m.toString()));
      config.responseModalities(modalities);
    }
    com.google.genai.types.SpeechConfig speech = rc.speechConfig();
    if (speech != null) {
      config.speechConfig(speech);
    }
    var live = com.google.genai.types.LiveConnectConfig.builder();
    com.google.genai.types.AudioTranscriptionConfig input = rc.inputAudioTranscription();
    if (input != null) {
      live.inputAudioTranscription(input);
    }
    com.google.genai.types.AudioTranscriptionConfig output = rc.outputAudioTranscription();
    if (output != null) {
      live.outputAudioTranscription(output);
    }
    com.google.genai.types.AvatarConfig avatar = rc.avatarConfig();
    if (avatar != null) {
      live.avatarConfig(avatar);
    }
    LlmRequest.Builder b =
        LlmRequest.builder()
            .contents(built.contents())
            .config(config.build())
            .liveConnectConfig(live.build());
    built.model().ifPresent(b::model);
    return b.build();
  }

  private void send(BaseLlmConnection connection, LiveRequest r) {
    Content content = r.content().orElse(null);
    if (content != null) {
      Content user =
          content.role().isPresent() ? content : content.toBuilder().role("user").build();
      ctx.persist(ctx.newEvent("user").content(user).build());
      connection.sendContent(user).blockingAwait();
    }
    if (r.blob().isPresent()) {
      connection.sendRealtime(r.blob().get()).blockingAwait();
    }
  }

  private void received(BaseLlmConnection connection, LlmResponse r) {
    r.usageMetadata().ifPresent(u -> usage = u);
    r.groundingMetadata().ifPresent(g -> grounding = g);
    if (r.interrupted().orElse(false)) {
      interrupted = true;
    }
    if (r.inputTranscription().isPresent()) {
      heard(r.inputTranscription().get());
    }
    if (r.outputTranscription().isPresent()) {
      Transcription t = r.outputTranscription().get();
      t.text().ifPresent(said::append);
      Flows.emit(emitter, agent.newEvent(ctx).outputTranscription(t).partial(true).build());
    }
    Content content = r.content().orElse(null);
    if (r.partial().orElse(false)) {
      if (content != null) {
        turn.addAll(content.parts().orElse(List.of()));
        Flows.emit(emitter, agent.newEvent(ctx).content(content).partial(true).build());
      }
    } else if (content != null
        && content.parts().orElse(List.of()).stream().anyMatch(p -> p.functionCall().isPresent())) {
      endTurn(false);
      call(connection, content);
    }
    if (r.turnComplete().orElse(false)) {
      endTurn(true);
    }
  }

  /**
   * A piece of the transcription of the person's speech: emitted as a partial event of the user;
   * stored as one user event holding the whole transcription once the model says it is finished (or
   * when the model's turn ends).
   */
  private void heard(Transcription t) {
    t.text().ifPresent(heard::append);
    Flows.emit(emitter, ctx.newEvent("user").inputTranscription(t).partial(true).build());
    if (t.finished().orElse(false)) {
      storeHeard();
    }
  }

  private void storeHeard() {
    if (heard.length() == 0) {
      return;
    }
    Transcription whole = Transcription.builder().text(heard.toString()).finished(true).build();
    heard.setLength(0);
    Flows.emit(emitter, ctx.persist(ctx.newEvent("user").inputTranscription(whole).build()));
  }

  /** Stores and emits the model turn under way (if it has anything to store, or it completed). */
  private void endTurn(boolean complete) {
    storeHeard();
    List<Part> parts = merged(turn);
    turn.clear();
    if (parts.isEmpty() && !complete) {
      return;
    }
    Event.Builder b =
        agent
            .newEvent(ctx)
            .content(parts.isEmpty() ? null : Content.builder().role("model").parts(parts).build())
            .turnComplete(complete ? Boolean.TRUE : null)
            .usageMetadata(usage);
    usage = null;
    if (complete) {
      LlmResponse.Builder turnMetadata = LlmResponse.builder().groundingMetadata(grounding);
      if (said.length() > 0) {
        turnMetadata.outputTranscription(
            Transcription.builder().text(said.toString()).finished(true).build());
      }
      if (interrupted) {
        turnMetadata.interrupted(true);
      }
      LlmFlow.withResponseMetadata(b, turnMetadata.build(), ctx.runConfig());
      said.setLength(0);
      grounding = null;
      interrupted = false;
    }
    Event draft = b.build();
    CallbackContext cc = new CallbackContext(ctx);
    if (complete) {
      agent.recordOutput(cc, draft);
    }
    Flows.emit(emitter, ctx.persist(draft.toBuilder().actions(cc.actions()).build()));
  }

  /** Stores the model's function calls, answers them as a turn does, and sends the answers. */
  private void call(BaseLlmConnection connection, Content content) {
    Content withIds = LlmFlow.withCallIds(content, ctx.idSource());
    Event calls = ctx.persist(agent.newEvent(ctx).content(withIds).usageMetadata(usage).build());
    usage = null;
    Flows.emit(emitter, calls);
    List<FunctionCall> functionCalls = calls.functionCalls();
    Event answers = ToolCalls.run(agent, ctx, functionCalls);
    if (answers == null) {
      return;
    }
    Flows.emit(emitter, answers);
    if (answers.content().isPresent()) {
      connection.sendContent(answers.content().get()).blockingAwait();
    }
  }

  /** {@code parts} with consecutive text parts merged (thought text apart), inline data dropped. */
  private static List<Part> merged(List<Part> parts) {
    List<Part> out = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    boolean thought = false;
    for (Part p : parts) {
      if (p.text().isPresent()) {
        boolean isThought = p.thought().orElse(false);
        if (text.length() > 0 && isThought != thought) {
          out.add(textPart(text, thought));
        }
        thought = isThought;
        text.append(p.text().get());
      } else if (p.inlineData().isEmpty()) {
        if (text.length() > 0) {
          out.add(textPart(text, thought));
        }
        out.add(p);
      }
    }
    if (text.length() > 0) {
      out.add(textPart(text, thought));
    }
    return out;
  }

  private static Part textPart(StringBuilder text, boolean thought) {
    Part.Builder b = Part.builder().text(text.toString());
    if (thought) {
      b.thought(true);
    }
    text.setLength(0);
    return b.build();
  }
}
