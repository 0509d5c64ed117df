package dev.adk4j.runner;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.IdSource;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.events.Event;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a session's history valid for a model when an invocation ends early: every function call
 * gets a response, and a final event records why the invocation ended.
 */
final class InvocationHistory {
  private static final Logger log = LoggerFactory.getLogger(InvocationHistory.class);

  private InvocationHistory() {}

  /**
   * The events that close invocation {@code invocationId} of {@code ctx}'s session: for each event
   * with function calls that have no response, an event (same author and branch) answering them
   * with an error; then an event by {@code agent} carrying {@code code} and {@code message}.
   */
  static List<Event> close(
      InvocationContext ctx, String invocationId, BaseAgent agent, String code, String message) {
    return close(
        ctx.session().events(), invocationId, agent, code, message, ctx.idSource(), ctx.clock());
  }

  /** {@link #close(InvocationContext, String, BaseAgent, String, String)} over stored events. */
  private static List<Event> close(
      List<Event> stored,
      String invocationId,
      BaseAgent agent,
      String code,
      String message,
      IdSource ids,
      java.time.Clock clock) {
    List<Event> events = new ArrayList<>();
    for (Map.Entry<Event, List<FunctionCall>> e : unanswered(stored, invocationId).entrySet()) {
      Event call = e.getKey();
      List<Part> parts = new ArrayList<>();
      for (FunctionCall fc : e.getValue()) {
        parts.add(
            Part.builder()
                .functionResponse(
                    FunctionResponse.builder()
                        .id(fc.id().orElse(null))
                        .name(fc.name().orElse(""))
                        .response(
                            Map.of(
                                "error",
                                "The invocation ended before this call was answered: " + message))
                        .build())
                .build());
      }
      events.add(
          Event.builder()
              .id(ids.newEventId())
              .timestamp(clock.millis())
              .invocationId(invocationId)
              .author(call.author())
              .branch(call.branch().orElse(null))
              .content(Content.builder().role("user").parts(parts).build())
              .build());
    }
    events.add(
        Event.builder()
            .id(ids.newEventId())
            .timestamp(clock.millis())
            .invocationId(invocationId)
            .author(agent.name())
            .errorCode(code)
            .errorMessage(message)
            .turnComplete(true)
            .build());
    return events;
  }

  /**
   * If the session's last invocation left function calls unanswered (its process stopped in the
   * middle of a turn), closes them with code {@code INTERRUPTED} before a new turn begins. Called
   * with the session's lease held, so that invocation is over.
   *
   * @param tookOver whether the lease was taken from a holder that never released it ({@link
   *     dev.adk4j.sessions.SessionLease#tookOver()}): then a last invocation that stored only its
   *     user message died before its agent answered, and is closed too. Without that sign, such an
   *     invocation may be one whose agent legitimately produced no event, and is left as it is.
   */
  static void closeInterrupted(InvocationContext ctx, BaseAgent agent, boolean tookOver) {
    closeInterrupted(
        ctx.session(),
        agent,
        tookOver,
        "invocation " + ctx.invocationId(),
        ctx::persist,
        ctx.idSource(),
        ctx.clock());
  }

  /**
   * {@link #closeInterrupted(InvocationContext, BaseAgent)} for what is not an invocation (a
   * rewind): the closing events of {@code session}'s last invocation go to {@code persist}.
   *
   * @param next what comes next, for the log line ({@code invocation e-...}, {@code a rewind})
   */
  static void closeInterrupted(
      Session session,
      BaseAgent agent,
      boolean tookOver,
      String next,
      Consumer<Event> persist,
      IdSource ids,
      java.time.Clock clock) {
    List<Event> events = session.events();
    if (events.isEmpty()) {
      return;
    }
    Event lastEvent = events.get(events.size() - 1);
    String last = lastEvent.invocationId();
    if (last == null
        || (unanswered(events, last).isEmpty()
            && !stoppedAfterToolResponses(events, last)
            && !(tookOver && isUserMessage(lastEvent)))) {
      return;
    }
    log.warn(
        "Invocation {} of {} ended before it finished (function calls unanswered, tool responses"
            + " the model never saw, or its user message unanswered when its holder died);"
            + " closing it with an error before {}",
        last,
        SessionException.describe(session.appName(), session.userId(), session.id()),
        next);
    String message =
        "invocation " + last + " was interrupted before it finished (its process stopped?)";
    for (Event e : close(events, last, agent, "INTERRUPTED", message, ids, clock)) {
      persist.accept(e);
    }
  }

  /** A user's message, not a rewind (which is stored as the user's too). */
  private static boolean isUserMessage(Event e) {
    return "user".equals(e.author()) && e.actions().rewindBeforeInvocationId().isEmpty();
  }

  /**
   * Whether the last stored event, of {@code invocationId}, answers function calls and the turn
   * stopped there: the tool responses were stored but the step after them (the next model call, or
   * the error event that closes a failed turn) never was, as when the store failed under it or the
   * process died. Not when the responses end the turn ({@link Event#finalResponse()}: skipped
   * summarization), nor when they answer long-running calls (the invocation paused on those).
   */
  private static boolean stoppedAfterToolResponses(List<Event> events, String invocationId) {
    Event lastEvent = events.get(events.size() - 1);
    if (!invocationId.equals(lastEvent.invocationId())
        || lastEvent.finalResponse()
        || lastEvent.errorCode().isPresent()) {
      return false;
    }
    Set<String> responses = new HashSet<>();
    for (Part p : lastEvent.content().flatMap(Content::parts).orElse(List.of())) {
      p.functionResponse().ifPresent(r -> responses.add(r.id().orElse("")));
    }
    if (responses.isEmpty()) {
      return false;
    }
    for (int i = events.size() - 1; i >= 0; i--) {
      Event e = events.get(i);
      if (!invocationId.equals(e.invocationId())) {
        break;
      }
      e.longRunningToolIds().ifPresent(responses::removeAll);
    }
    return !responses.isEmpty();
  }

  /**
   * The events of {@code invocationId} with function calls that no later event answers, except
   * long-running calls ({@link Event#longRunningToolIds()}): the invocation paused on those, and
   * they stay open for the client's answer.
   */
  private static Map<Event, List<FunctionCall>> unanswered(
      List<Event> events, String invocationId) {
    Set<String> answered = new HashSet<>();
    Map<Event, List<FunctionCall>> calls = new LinkedHashMap<>();
    boolean inInvocation = false;
    for (int i = events.size() - 1; i >= 0; i--) {
      Event e = events.get(i);
      if (!invocationId.equals(e.invocationId())) {
        if (inInvocation) {
          break; // an invocation's events are contiguous: this is the one before it
        }
        continue;
      }
      inInvocation = true;
      for (Part p : e.content().flatMap(Content::parts).orElse(List.of())) {
        p.functionResponse().flatMap(FunctionResponse::id).ifPresent(answered::add);
      }
      List<FunctionCall> open = new ArrayList<>();
      for (Part p : e.content().flatMap(Content::parts).orElse(List.of())) {
        if (p.functionCall().isPresent()) {
          FunctionCall fc = p.functionCall().get();
          boolean waiting =
              fc.id().isPresent()
                  && e.longRunningToolIds().map(ids -> ids.contains(fc.id().get())).orElse(false);
          if (!waiting && (fc.id().isEmpty() || !answered.contains(fc.id().get()))) {
            open.add(fc);
          }
        }
      }
      if (!open.isEmpty()) {
        calls.put(e, open);
      }
    }
    return calls;
  }
}
