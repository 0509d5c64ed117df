package dev.adk4j.models;

import com.google.genai.AsyncSession;
import com.google.genai.Client;
import com.google.genai.types.Blob;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import com.google.genai.types.LiveConnectConfig;
import com.google.genai.types.LiveSendClientContentParameters;
import com.google.genai.types.LiveSendRealtimeInputParameters;
import com.google.genai.types.LiveSendToolResponseParameters;
import com.google.genai.types.LiveServerContent;
import com.google.genai.types.LiveServerMessage;
import com.google.genai.types.Part;
import com.google.genai.types.UsageMetadata;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.processors.FlowableProcessor;
import io.reactivex.rxjava3.processors.UnicastProcessor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Gemini} model's live connection: one session of the Live API ({@code
 * BidiGenerateContent} over a websocket), opened through google-genai's {@code
 * client.async.live.connect}.
 *
 * <p>Server messages become {@link LlmResponse}s: each {@code serverContent} with a model turn a
 * partial response holding its parts (and the grounding the server reported with them); an input or
 * output transcription a partial response holding it; {@code turnComplete}, {@code interrupted} or
 * {@code generationComplete} a response with {@code turnComplete} true ({@code interrupted} true
 * too for an interruption); a {@code toolCall} a non-partial response whose content holds the
 * function calls; {@code usageMetadata} a response holding only the usage. {@link #sendContent} of
 * function responses becomes a {@code toolResponse}, any other content a {@code clientContent}
 * turn; {@link #sendRealtime} a {@code realtimeInput} (audio, video or media by MIME type).
 *
 * <p><b>Closing by the server.</b> google-genai 1.70 tells a session's receiver nothing when the
 * server closes the websocket or the connection fails after setup: it only logs it. This class
 * listens to that log ({@code com.google.genai.AsyncLive}) and matches the record to its session by
 * the thread that delivers the session's messages (okhttp reads each websocket on a thread of its
 * own, the one that logs its closing), so {@link #receive()} fails with an {@link LlmException}
 * carrying the close code and reason. (Checked again for google-genai 1.70: {@code
 * AsyncSession.receive} answers an already completed future, its websocket listener is
 * package-private and reports {@code onClosing}, {@code onClosed} and {@code onFailure} only to
 * that logger, and the client has no close callback; the watch stays until it offers one.)
 */
final class GeminiLlmConnection implements BaseLlmConnection {
  private static final Logger log = LoggerFactory.getLogger(GeminiLlmConnection.class);

  /** The open connections, by the thread that reads their websocket. */
  private static final Map<Thread, GeminiLlmConnection> BY_READER = new ConcurrentHashMap<>();

  /** Kept strongly reachable: {@code java.util.logging} holds loggers (and so handlers) weakly. */
  private static final List<java.util.logging.Logger> KEEP = new ArrayList<>();

  static {
    java.util.logging.Logger live =
        java.util.logging.Logger.getLogger("com.google.genai.AsyncLive");
    live.addHandler(new ClosingWatcher());
    KEEP.add(live);
  }

  /** The longest {@link #open} waits for the server to confirm the session's setup. */
  static final java.time.Duration SETUP_TIMEOUT = java.time.Duration.ofMinutes(1);

  private final String model;
  private final AsyncSession session;

  /** Kept until the one subscriber comes, then handed over as they arrive (nothing retained). */
  private final FlowableProcessor<LlmResponse> responses =
      UnicastProcessor.<LlmResponse>create().toSerialized();

  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile @Nullable Thread reader;

  private GeminiLlmConnection(String model, AsyncSession session) {
    this.model = model;
    this.session = session;
  }

  /**
   * Connects and waits for the server's {@code setupComplete}.
   *
   * @throws LlmException if the connection or the setup fails
   */
  static GeminiLlmConnection open(Client client, String model, LiveConnectConfig config) {
    Thread caller = Thread.currentThread();
    CompletableFuture<AsyncSession> connecting = client.async.live.connect(model, config);
    // Listens as the session completes, on the thread that reads the websocket and before that
    // thread reads the server's next message: google-genai drops (and logs) a message that comes
    // before receive() has given it a callback, and a server may speak right after setupComplete.
    CompletableFuture<GeminiLlmConnection> ready =
        connecting.thenApply(session -> new GeminiLlmConnection(model, session).listen(caller));
    try {
      return ready.get(SETUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      giveUp(connecting, ready);
      throw new LlmException(
          model,
          0,
          "Live connection to model '"
              + model
              + "' got no setupComplete within "
              + SETUP_TIMEOUT.toSeconds()
              + " s",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      giveUp(connecting, ready);
      throw new LlmException(model, 0, "Interrupted while connecting to model '" + model + "'", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new LlmException(
          model, 0, "Live connection to model '" + model + "' failed: " + describe(cause), cause);
    }
  }

  /** Stops waiting for a connection: one that completes all the same is closed. */
  private static void giveUp(
      CompletableFuture<AsyncSession> connecting, CompletableFuture<GeminiLlmConnection> ready) {
    connecting.cancel(true);
    ready.thenAccept(GeminiLlmConnection::close);
  }

  /**
   * Hands the session's messages to this connection; on the websocket's reader thread (not the
   * thread that opens it), also remembers that thread, whose log records say how the websocket
   * closed.
   */
  private GeminiLlmConnection listen(Thread caller) {
    Thread thread = Thread.currentThread();
    if (thread != caller) {
      reader = thread;
      BY_READER.put(thread, this);
    }
    session.receive(this::onMessage);
    return this;
  }

  /**
   * The live config of {@code request}: its {@link LlmRequest#liveConnectConfig()} (transcriptions,
   * avatar, ...) with its system instruction, tools and generation settings applied.
   */
  static LiveConnectConfig liveConfig(LlmRequest request) {
    GenerateContentConfig c = request.config();
    LiveConnectConfig.Builder b = request.liveConnectConfig().toBuilder();
    c.systemInstruction().ifPresent(b::systemInstruction);
    c.tools().filter(t -> !t.isEmpty()).ifPresent(b::tools);
    c.responseModalities().ifPresent(m -> b.responseModalities(m.toArray(new String[0])));
    c.speechConfig().ifPresent(b::speechConfig);
    c.temperature().ifPresent(b::temperature);
    c.topP().ifPresent(b::topP);
    c.topK().ifPresent(b::topK);
    c.maxOutputTokens().ifPresent(b::maxOutputTokens);
    c.seed().ifPresent(b::seed);
    c.thinkingConfig().ifPresent(b::thinkingConfig);
    c.mediaResolution().ifPresent(b::mediaResolution);
    c.safetySettings().ifPresent(b::safetySettings);
    return b.build();
  }

  private void onMessage(LiveServerMessage message) {
    Thread current = Thread.currentThread();
    if (reader != current) {
      Thread previous = reader;
      if (previous != null) {
        BY_READER.remove(previous, this);
      }
      reader = current;
      BY_READER.put(current, this);
    }
    message.goAway().ifPresent(g -> log.info("Model '{}' will end the live session: {}", model, g));
    message.serverContent().ifPresent(this::onServerContent);
    message
        .toolCall()
        .flatMap(t -> t.functionCalls())
        .filter(calls -> !calls.isEmpty())
        .ifPresent(this::onToolCall);
    message.usageMetadata().ifPresent(u -> emit(LlmResponse.builder().usageMetadata(usage(u))));
  }

  private void onServerContent(LiveServerContent content) {
    content
        .inputTranscription()
        .ifPresent(t -> emit(LlmResponse.builder().inputTranscription(t).partial(true)));
    content
        .outputTranscription()
        .ifPresent(t -> emit(LlmResponse.builder().outputTranscription(t).partial(true)));
    content
        .modelTurn()
        .filter(t -> t.parts().isPresent() && !t.parts().get().isEmpty())
        .ifPresent(
            turn ->
                emit(
                    LlmResponse.builder()
                        .content(turn)
                        .partial(true)
                        .groundingMetadata(content.groundingMetadata().orElse(null))));
    boolean interrupted = content.interrupted().orElse(false);
    if (content.turnComplete().orElse(false)
        || interrupted
        || content.generationComplete().orElse(false)) {
      emit(LlmResponse.builder().turnComplete(true).interrupted(interrupted ? Boolean.TRUE : null));
    }
  }

  private void onToolCall(List<FunctionCall> calls) {
    List<Part> parts = new ArrayList<>();
    for (FunctionCall call : calls) {
      parts.add(Part.builder().functionCall(call).build());
    }
    emit(LlmResponse.builder().content(Content.builder().role("model").parts(parts).build()));
  }

  private static GenerateContentResponseUsageMetadata usage(UsageMetadata u) {
    GenerateContentResponseUsageMetadata.Builder b = GenerateContentResponseUsageMetadata.builder();
    u.promptTokenCount().ifPresent(b::promptTokenCount);
    u.responseTokenCount().ifPresent(b::candidatesTokenCount);
    u.totalTokenCount().ifPresent(b::totalTokenCount);
    u.thoughtsTokenCount().ifPresent(b::thoughtsTokenCount);
    return b.build();
  }

  private void emit(LlmResponse.Builder response) {
    if (!closed.get()) {
      responses.onNext(response.build());
    }
  }

  /** The websocket was closed by the server or failed: {@link #receive()} fails saying how. */
  private void lost(String how, @Nullable Throwable cause) {
    close(
        new LlmException(
            model,
            0,
            "Live connection to model '" + model + "' " + how + " while the live run was open",
            cause));
  }

  @Override
  public Completable sendHistory(List<Content> history) {
    Objects.requireNonNull(history, "history");
    if (history.isEmpty()) {
      return Completable.complete();
    }
    boolean userLast = "user".equals(history.get(history.size() - 1).role().orElse("user"));
    return send(
        () ->
            session.sendClientContent(
                LiveSendClientContentParameters.builder()
                    .turns(history)
                    .turnComplete(userLast)
                    .build()));
  }

  @Override
  public Completable sendContent(Content content) {
    Objects.requireNonNull(content, "content");
    List<FunctionResponse> answers = new ArrayList<>();
    for (Part p : content.parts().orElse(List.of())) {
      p.functionResponse().ifPresent(answers::add);
    }
    if (!answers.isEmpty()) {
      return send(
          () ->
              session.sendToolResponse(
                  LiveSendToolResponseParameters.builder().functionResponses(answers).build()));
    }
    return send(
        () ->
            session.sendClientContent(
                LiveSendClientContentParameters.builder()
                    .turns(List.of(content))
                    .turnComplete(true)
                    .build()));
  }

  @Override
  public Completable sendRealtime(Blob blob) {
    Objects.requireNonNull(blob, "blob");
    String mime = blob.mimeType().orElse("");
    LiveSendRealtimeInputParameters.Builder b = LiveSendRealtimeInputParameters.builder();
    if (mime.startsWith("audio/")) {
      b.audio(blob);
    } else if (mime.startsWith("image/") || mime.startsWith("video/")) {
      b.video(blob);
    } else {
      b.media(blob);
    }
    LiveSendRealtimeInputParameters params = b.build();
    return send(() -> session.sendRealtimeInput(params));
  }

  private Completable send(java.util.function.Supplier<CompletableFuture<Void>> sending) {
    return Completable.defer(
        () -> {
          if (closed.get()) {
            return Completable.error(
                new LlmException(
                    model, 0, "Live connection to model '" + model + "' is closed", null));
          }
          return Completable.fromCompletionStage(sending.get());
        });
  }

  @Override
  public Flowable<LlmResponse> receive() {
    return responses;
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      release();
      responses.onComplete();
    }
  }

  @Override
  public void close(Throwable cause) {
    if (closed.compareAndSet(false, true)) {
      release();
      responses.onError(cause);
    }
  }

  private void release() {
    Thread t = reader;
    if (t != null) {
      BY_READER.remove(t, this);
    }
    session.close();
  }

  private static String describe(Throwable t) {
    return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
  }

  @Override
  public String toString() {
    return "GeminiLlmConnection{model=" + model + ", session=" + session.sessionId() + "}";
  }

  /** Turns google-genai's log of a websocket closing or failing into the connection's failure. */
  private static final class ClosingWatcher extends Handler {
    @Override
    public void publish(LogRecord record) {
      GeminiLlmConnection connection = BY_READER.get(Thread.currentThread());
      String message = record.getMessage();
      if (connection == null || connection.closed.get() || message == null) {
        return;
      }
      Object[] params = record.getParameters();
      if (message.startsWith("Live session closing") || message.startsWith("Live session closed")) {
        Object code = params != null && params.length > 0 ? params[0] : "?";
        Object reason = params != null && params.length > 1 ? params[1] : "";
        connection.lost(
            "was closed by the server (code " + code + ", reason '" + reason + "')", null);
      } else if (record.getThrown() != null && message.startsWith("Error during live session")) {
        connection.lost("failed (" + describe(record.getThrown()) + ")", record.getThrown());
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }
}
