package dev.adk4j.internal.tools;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.events.ToolConfirmation;
import dev.adk4j.internal.Json;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The calls an invocation paused on (long-running calls and confirmation requests, listed in {@link
 * Event#longRunningToolIds()}), and the messages that resume it: a message holding function
 * responses to such calls.
 */
public final class PendingCalls {

  private PendingCalls() {}

  /**
   * What a message resumes: the invocation that made the calls it answers, the agent that made
   * them, and the branch it ran on.
   */
  public record Resume(@Nullable String invocationId, String agentName, @Nullable String branch) {}

  /** A function call of a stored event. */
  private record Made(Event event, FunctionCall call) {}

  /**
   * The invocation {@code message} resumes, or null if it holds no function response (a new turn).
   *
   * @param where names the session, for errors ({@code session 's' of user 'u' in app 'a'})
   * @throws IllegalArgumentException if a function response has no id, answers no call of {@code
   *     events}, answers a call that is not long-running, names another function than the call,
   *     answers a confirmation request already answered or with no {@code confirmed} boolean, or if
   *     the responses answer calls of different agents or invocations
   */
  public static @Nullable Resume resumeOf(
      List<Event> events, @Nullable Content message, String where) {
    List<FunctionResponse> responses = responses(message);
    if (responses.isEmpty()) {
      return null;
    }
    Map<String, Made> calls = callsById(events);
    Set<String> answered = answeredIds(events);
    Made first = null;
    for (FunctionResponse r : responses) {
      String name = r.name().orElse("");
      String id =
          r.id()
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "Function response '"
                              + name
                              + "' in the message to "
                              + where
                              + " has no id: give it the id of the call it answers"));
      Made made = calls.get(id);
      if (made == null) {
        throw new IllegalArgumentException(
            "Function response '"
                + name
                + "' answers call '"
                + id
                + "', which is no function call of "
                + where);
      }
      String callName = made.call().name().orElse("");
      if (!made.event().longRunningToolIds().map(ids -> ids.contains(id)).orElse(false)) {
        throw new IllegalArgumentException(
            "Function call '"
                + id
                + "' to '"
                + callName
                + "' of "
                + where
                + " is not long-running (its agent answers it itself): a client may only answer"
                + " long-running calls and confirmation requests");
      }
      if (!name.isEmpty() && !name.equals(callName)) {
        throw new IllegalArgumentException(
            "Function response '"
                + name
                + "' answers call '"
                + id
                + "' of "
                + where
                + ", which is a call to '"
                + callName
                + "'");
      }
      if (ToolConfirmation.REQUEST_FUNCTION_NAME.equals(callName)) {
        if (answered.contains(id)) {
          throw new IllegalArgumentException(
              "Confirmation request '" + id + "' of " + where + " was already answered");
        }
        answer(r, where);
      }
      if (first == null) {
        first = made;
      } else if (!java.util.Objects.equals(
              first.event().invocationId(), made.event().invocationId())
          || !java.util.Objects.equals(first.event().author(), made.event().author())) {
        throw new IllegalArgumentException(
            "The function responses in the message to "
                + where
                + " answer calls of two invocations or agents ('"
                + first.call().id().orElse("")
                + "' of "
                + first.event().author()
                + " in "
                + first.event().invocationId()
                + ", '"
                + id
                + "' of "
                + made.event().author()
                + " in "
                + made.event().invocationId()
                + "): answer them in separate messages");
      }
    }
    Event call = java.util.Objects.requireNonNull(first).event();
    String author = call.author();
    if (author == null || author.equals("user")) {
      throw new IllegalArgumentException(
          "Function call '" + first.call().id().orElse("") + "' of " + where + " has no agent");
    }
    return new Resume(call.invocationId(), author, call.branch().orElse(null));
  }

  /**
   * The name of the agent that made the calls {@code userContent} answers, or null if it answers
   * none of {@code events}' calls.
   */
  public static @Nullable String resumedAgent(List<Event> events, @Nullable Content userContent) {
    List<FunctionResponse> responses = responses(userContent);
    if (responses.isEmpty()) {
      return null;
    }
    Map<String, Made> calls = callsById(events);
    for (FunctionResponse r : responses) {
      Made made = r.id().map(calls::get).orElse(null);
      if (made != null) {
        return made.event().author();
      }
    }
    return null;
  }

  /**
   * The person's answer in {@code response} to a confirmation request: its {@code confirmed} and
   * {@code payload}, given as they are or as a JSON string under {@code response} (as ADK's web UI
   * sends it).
   *
   * @throws IllegalArgumentException if there is no {@code confirmed} boolean
   */
  public static ToolConfirmation answer(FunctionResponse response, String where) {
    Map<String, Object> body = response.response().orElse(Map.of());
    Object answer = body;
    if (body.size() == 1 && body.get("response") instanceof String json) {
      try {
        answer = Json.fromJson(json, Object.class);
      } catch (IllegalArgumentException e) {
        answer = null;
      }
    }
    if (answer instanceof Map<?, ?> map && map.get("confirmed") instanceof Boolean confirmed) {
      return ToolConfirmation.builder()
          .confirmed(confirmed)
          .hint(map.get("hint") instanceof String hint ? hint : null)
          .payload(map.get("payload"))
          .build();
    }
    throw new IllegalArgumentException(
        "The answer to confirmation request '"
            + response.id().orElse("")
            + "' of "
            + where
            + " must be {\"confirmed\": true|false, \"payload\": ...}; got "
            + Json.toJson(body));
  }

  /** Whether {@code part} is a confirmation request or the answer to one. */
  public static boolean isConfirmationPart(Part part) {
    return part.functionCall()
            .flatMap(FunctionCall::name)
            .map(ToolConfirmation.REQUEST_FUNCTION_NAME::equals)
            .orElse(false)
        || part.functionResponse()
            .flatMap(FunctionResponse::name)
            .map(ToolConfirmation.REQUEST_FUNCTION_NAME::equals)
            .orElse(false);
  }

  private static List<FunctionResponse> responses(@Nullable Content message) {
    List<FunctionResponse> responses = new ArrayList<>();
    if (message != null) {
      for (Part p : message.parts().orElse(List.of())) {
        p.functionResponse().ifPresent(responses::add);
      }
    }
    return responses;
  }

  /** The function calls of {@code events} by id; the latest one when an id repeats. */
  private static Map<String, Made> callsById(List<Event> events) {
    Map<String, Made> calls = new HashMap<>();
    for (Event e : events) {
      for (FunctionCall fc : e.functionCalls()) {
        fc.id().ifPresent(id -> calls.put(id, new Made(e, fc)));
      }
    }
    return calls;
  }

  /** The ids of the function responses of {@code events}. */
  private static Set<String> answeredIds(List<Event> events) {
    Set<String> ids = new HashSet<>();
    for (Event e : events) {
      for (FunctionResponse r : e.functionResponses()) {
        r.id().ifPresent(ids::add);
      }
    }
    return ids;
  }
}
