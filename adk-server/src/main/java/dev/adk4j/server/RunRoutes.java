package dev.adk4j.server;

import static dev.adk4j.server.Exchanges.readBody;
import static dev.adk4j.server.Exchanges.sendJson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.types.Content;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.runner.InvocationFailedException;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionWait;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.schedulers.Schedulers;
import io.reactivex.rxjava3.subscribers.ResourceSubscriber;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /run} (all events in one JSON array) and {@code POST /run_sse} (a Server-Sent Events
 * stream with keep-alives, cancelled when the client goes away); tracks the runs in flight so that
 * stopping the server can cancel them.
 */
final class RunRoutes {
  private static final Logger log = LoggerFactory.getLogger(RunRoutes.class);

  /** A run's request body. */
  record RunRequest(
      String appName,
      String userId,
      String sessionId,
      @Nullable Content newMessage,
      boolean streaming,
      @Nullable Map<String, Object> stateDelta,
      @Nullable String invocationId) {}

  private final Apps apps;
  private final SessionRoutes sessions;
  private final ServerConfig config;

  /** The runs in flight, with what they run on. */
  private final Map<ResourceSubscriber<Event>, RunRequest> runs = new ConcurrentHashMap<>();

  RunRoutes(Apps apps, SessionRoutes sessions, ServerConfig config) {
    this.apps = apps;
    this.sessions = sessions;
    this.config = config;
  }

  /** Answers a run: {@code /run_sse} with {@code sse}, else {@code /run}. */
  void handle(HttpExchange ex, boolean sse) throws IOException {
    RunRequest run = runRequest(readBody(ex, config.maxBodyBytes()));
    if (sse) {
      runSse(ex, run);
    } else {
      run(ex, run);
    }
  }

  /** Cancels every run in flight; returns what they ran on. */
  List<RunRequest> cancelAll() {
    List<RunRequest> cancelled = new ArrayList<>();
    for (Map.Entry<ResourceSubscriber<Event>, RunRequest> run : runs.entrySet()) {
      run.getKey().dispose();
      cancelled.add(run.getValue());
    }
    return cancelled;
  }

  private RunRequest runRequest(byte[] raw) {
    ObjectNode body = Wire.object(Wire.parse(raw), "the request body");
    if (body == null) {
      throw HttpError.invalid(
          "missing",
          "a run needs a body: {appName, userId, sessionId, newMessage, streaming, stateDelta}",
          "body");
    }
    String app = Wire.requiredText(body, "appName", "app_name");
    String user = Wire.requiredText(body, "userId", "user_id");
    String session = Wire.requiredText(body, "sessionId", "session_id");
    JsonNode msg = Wire.field(body, "newMessage", "new_message");
    Content content = null;
    if (msg != null) {
      if (!msg.isObject()) {
        throw HttpError.invalid(
            "model_attributes_type",
            "'newMessage' must be a Content object, got " + Wire.kind(msg),
            "body",
            "newMessage");
      }
      try {
        content = Wire.MAPPER.treeToValue(Wire.standardBase64(msg.deepCopy()), Content.class);
      } catch (IOException | IllegalArgumentException e) {
        throw HttpError.invalid(
            "model_type",
            "'newMessage' is not a valid Content" + Wire.where(e),
            "body",
            "newMessage");
      }
    }
    JsonNode invocation = Wire.field(body, "invocationId", "invocation_id");
    if (invocation != null && !invocation.isTextual()) {
      throw HttpError.invalid(
          "string_type",
          "'invocationId' must be a string, got " + Wire.kind(invocation),
          "body",
          "invocationId");
    }
    if (content == null && (invocation == null || invocation.asText().isBlank())) {
      throw HttpError.invalid(
          "missing",
          "'newMessage' is required unless the run resumes an invocation ('invocationId'):"
              + " {\"role\": \"user\", \"parts\": [...]}",
          "body",
          "newMessage");
    }
    JsonNode streaming = Wire.field(body, "streaming");
    if (streaming != null && !streaming.isBoolean()) {
      throw HttpError.invalid(
          "bool_type",
          "'streaming' must be true or false, got " + Wire.kind(streaming),
          "body",
          "streaming");
    }
    Map<String, Object> delta =
        Wire.map(Wire.field(body, "stateDelta", "state_delta"), "stateDelta");
    apps.runner(app);
    // blank is absent, as in ADK (Python's falsy invocation_id)
    String resumed =
        invocation == null || invocation.asText().isBlank()
            ? null
            : Wire.id(invocation.asText(), "invocationId", "body");
    return new RunRequest(
        app, user, session, content, streaming != null && streaming.asBoolean(), delta, resumed);
  }

  private Flowable<Event> start(RunRequest run, Consumer<SessionWait> onWait) {
    Session session = sessions.requireSession(run.appName(), run.userId(), run.sessionId(), 0);
    AdkServer.ClientPolicy policy = apps.policy(run.appName());
    Content sent = run.newMessage();
    // A paused invocation (a long-running call, a confirmation) resumes with the message that
    // answers its calls, or by its invocationId alone when its answers are stored already. A
    // message holding no function response starts a new turn, invocationId or not.
    Content message =
        sent == null
            ? null
            : ClientWrites.message(
                policy,
                sent,
                "the newMessage of a run",
                run.appName(),
                run.userId(),
                run.sessionId());
    Map<String, Object> delta = run.stateDelta();
    if (delta != null) {
      delta =
          ClientWrites.state(
              policy,
              delta,
              session.state(),
              ClientWrites.Source.RUN,
              run.appName(),
              run.userId(),
              run.sessionId());
    }
    RunConfig cfg =
        RunConfig.builder()
            .streamingMode(
                run.streaming() ? RunConfig.StreamingMode.SSE : RunConfig.StreamingMode.NONE)
            .sessionWaitListener(onWait.andThen(config.onSessionWait()))
            .build();
    // On a thread of its own: the request's thread waits for it, sending heartbeats in a stream.
    return apps.runner(run.appName())
        .runAsync(
            run.userId(),
            run.sessionId(),
            message == null || answers(message) ? run.invocationId() : null,
            message,
            cfg,
            delta)
        .subscribeOn(Schedulers.io());
  }

  /** Whether {@code message} holds a function response (it resumes an invocation). */
  private static boolean answers(Content message) {
    return message.parts().orElse(List.of()).stream()
        .anyMatch(p -> p.functionResponse().isPresent());
  }

  private void run(HttpExchange ex, RunRequest run) throws IOException {
    Flowable<Event> flow = start(run, wait -> {});
    List<Event> events = new ArrayList<>();
    Throwable[] failure = new Throwable[1];
    CountDownLatch done = new CountDownLatch(1);
    ResourceSubscriber<Event> sub =
        new ResourceSubscriber<>() {
          @Override
          public void onNext(Event e) {
            synchronized (events) {
              events.add(e);
            }
          }

          @Override
          public void onError(Throwable t) {
            failure[0] = t;
            done.countDown();
          }

          @Override
          public void onComplete() {
            done.countDown();
          }
        };
    runs.put(sub, run);
    try {
      flow.subscribe(sub);
      done.await();
    } catch (InterruptedException e) {
      sub.dispose();
      Thread.currentThread().interrupt();
      throw new HttpError(503, "the server is stopping");
    } finally {
      runs.remove(sub);
    }
    ArrayNode out = Wire.MAPPER.createArrayNode();
    synchronized (events) {
      for (Event e : events) {
        out.add(Wire.event(e));
      }
      if (failure[0] == null) {
        // A failed invocation ends with its error event, not an error signal.
        failure[0] =
            InvocationFailedException.of(events)
                .map(InvocationFailedException::failure)
                .orElse(null);
      }
    }
    if (failure[0] != null) {
      Throwable t = failure[0];
      int status = Routes.statusOf(t);
      if (status >= 500) {
        log.warn("run on session {} failed", run.sessionId(), t);
      }
      ObjectNode err = Wire.error(Routes.messageOf(t), t, config.debug());
      err.set("events", out);
      sendJson(ex, status, err);
      return;
    }
    sendJson(ex, 200, out);
  }

  private void runSse(HttpExchange ex, RunRequest run) throws IOException {
    Object lock = new Object();
    AtomicReference<OutputStream> stream = new AtomicReference<>();
    // A run that waits for its session (another instance's turn holds it) says so in the stream
    // as a comment, which EventSource clients ignore; it names no holder (no host or process id).
    Flowable<Event> flow =
        start(
            run,
            wait -> {
              OutputStream o = stream.get();
              if (o != null) {
                write(
                    o,
                    lock,
                    ": waiting up to "
                        + wait.maxWait().toSeconds()
                        + " s for session '"
                        + run.sessionId().replaceAll("[\\r\\n]", " ")
                        + "': another turn is running on it\n\n");
              }
            }); // 404 before the stream opens
    Headers h = ex.getResponseHeaders();
    h.set("Content-Type", "text/event-stream; charset=utf-8");
    h.set("Cache-Control", "no-cache");
    h.set("X-Accel-Buffering", "no");
    ex.sendResponseHeaders(200, 0);
    OutputStream out = ex.getResponseBody();
    stream.set(out);
    CountDownLatch done = new CountDownLatch(1);
    AtomicReference<Event> last = new AtomicReference<>();
    ResourceSubscriber<Event> sub =
        new ResourceSubscriber<>() {
          @Override
          public void onNext(Event e) {
            last.set(e);
            for (ObjectNode frame : Wire.sseFrames(e)) {
              if (!write(out, lock, "data: " + Wire.line(frame) + "\n\n")) {
                dispose(); // the client went away: cancel the run
                done.countDown();
                return;
              }
            }
          }

          @Override
          public void onError(Throwable t) {
            if (Routes.statusOf(t) >= 500) {
              log.warn("run on session {} failed", run.sessionId(), t);
            }
            fail(t);
          }

          @Override
          public void onComplete() {
            // A failed invocation ends with its error event (already sent), then completes; the
            // stream still ends with the error frame ADK's clients look for.
            Event e = last.get();
            InvocationFailedException failed =
                e == null ? null : InvocationFailedException.of(e).orElse(null);
            if (failed != null) {
              if (Routes.statusOf(failed.failure()) >= 500) {
                log.warn("run on session {} failed", run.sessionId(), failed.failure());
              }
              fail(failed.failure());
            } else {
              done.countDown();
            }
          }

          private void fail(Throwable t) {
            write(
                out,
                lock,
                "data: "
                    + Wire.line(Wire.sseError(Routes.messageOf(t), t, config.debug()))
                    + "\n\n");
            done.countDown();
          }
        };
    runs.put(sub, run);
    try {
      flow.subscribe(sub);
      long beat = config.heartbeat().toMillis();
      while (!done.await(beat, TimeUnit.MILLISECONDS)) {
        if (!write(out, lock, ": keep-alive\n\n")) {
          log.debug("SSE client of session {} went away: cancelling the run", run.sessionId());
          sub.dispose();
          break;
        }
      }
    } catch (InterruptedException e) {
      sub.dispose();
      Thread.currentThread().interrupt();
    } finally {
      runs.remove(sub);
    }
    synchronized (lock) {
      try {
        out.close();
      } catch (IOException e) {
        log.debug("closing an SSE stream: {}", e.toString());
      }
    }
  }

  /** Writes and flushes one SSE chunk; false when the client is gone. */
  private static boolean write(OutputStream out, Object lock, String text) {
    synchronized (lock) {
      try {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
        return true;
      } catch (IOException e) {
        return false;
      }
    }
  }
}
