package dev.adk4j.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.state.Scope;
import dev.adk4j.state.State;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Applies an app's {@link AdkServer.ClientPolicy} to what a REST client sends: state it writes (a
 * run's {@code stateDelta}, a created session's {@code state}, a {@code PATCH}) and the message it
 * runs. Each check returns what may go on (unchanged keys dropped, a missing role set to {@code
 * user}) or throws before anything is stored: 403 for what the policy refuses, 400 for what has no
 * effect where it is sent ({@code temp:} keys outside a run).
 */
final class ClientWrites {
  private ClientWrites() {}

  /** Longer keys are cut in messages (a key may be tens of thousands of characters). */
  private static final int KEY_SHOWN = 100;

  /** Where the state comes from, for messages. */
  enum Source {
    RUN("the stateDelta of a run"),
    PATCH("the stateDelta of a PATCH"),
    CREATE("the state of a new session"),
    IMPORT("the stateDelta of an imported event");

    final String what;

    Source(String what) {
      this.what = what;
    }
  }

  /**
   * The state a client sends, checked against the policy.
   *
   * @param stored the session's current state ({@code null} when it is being created): an {@code
   *     app:} key whose value equals the stored one is dropped rather than refused
   * @return the keys to write, in the client's order (possibly empty)
   * @throws HttpError 403 for an {@code app:} or {@code secret:} key the policy refuses, 400 for a
   *     {@code temp:} key in a new session's state or a {@code PATCH} (an imported event's are
   *     dropped, as ADK drops them)
   */
  static Map<String, Object> state(
      AdkServer.ClientPolicy policy,
      Map<String, Object> sent,
      @Nullable Map<String, Object> stored,
      Source source,
      String app,
      String user,
      @Nullable String session) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : sent.entrySet()) {
      String key = e.getKey();
      Object value = e.getValue();
      switch (Scope.of(key)) {
        case APP -> {
          if (!policy.allowsAppState()) {
            if (stored != null && stored.containsKey(key) && sameJson(stored.get(key), value)) {
              continue; // unchanged: the dev UI sends the whole state when it edits one key
            }
            throw new HttpError(
                403,
                "clients may not write app state: key "
                    + shown(key)
                    + " in "
                    + source.what
                    + where(app, user, session)
                    + " (app: keys are read by every user of the app); allow it with"
                    + " ClientPolicy.appState(true) or --allow-client-writes app-state");
          }
        }
        case SECRET -> {
          if (State.REDACTED.equals(value)) {
            continue; // the API shows every secret as "***": sending it back changes nothing
          }
          if (!policy.allowsSecretState()) {
            throw new HttpError(
                403,
                "clients may not write secret state: key "
                    + shown(key)
                    + " in "
                    + source.what
                    + where(app, user, session)
                    + "; allow it with ClientPolicy.secretState(true) or --allow-client-writes"
                    + " secret-state");
          }
        }
        case TEMP -> {
          if (source == Source.IMPORT) {
            continue; // as ADK's session services: an event's temp: keys are never stored
          }
          if (source != Source.RUN) {
            throw HttpError.badRequest(
                "temp: keys live for one invocation and are never stored: key "
                    + shown(key)
                    + " in "
                    + source.what
                    + where(app, user, session)
                    + " would be lost; send it in a run's stateDelta");
          }
        }
        default -> {}
      }
      out.put(key, value);
    }
    return out;
  }

  /**
   * The message a client runs, checked against the policy: role {@code user} (set when missing), no
   * part only a model writes.
   *
   * @throws HttpError 403 naming the role or the part, the app, user and session
   */
  static Content message(
      AdkServer.ClientPolicy policy,
      Content message,
      String what,
      String app,
      String user,
      @Nullable String session) {
    if (policy.allowsModelContent()) {
      return message;
    }
    String role = message.role().orElse(null);
    if (role != null && !role.equals("user")) {
      throw new HttpError(
          403,
          "clients may only send messages with role 'user', got role "
              + shown(role)
              + " in "
              + what
              + where(app, user, session)
              + "; allow it with ClientPolicy.modelContent(true) or --allow-client-writes"
              + " model-content");
    }
    List<Part> parts = message.parts().orElse(List.of());
    for (int i = 0; i < parts.size(); i++) {
      String modelPart = modelPart(parts.get(i));
      if (modelPart != null) {
        throw new HttpError(
            403,
            "clients may not send a "
                + modelPart
                + " part (parts["
                + i
                + "] of "
                + what
                + where(app, user, session)
                + "): only a model writes those; allow it with ClientPolicy.modelContent(true) or"
                + " --allow-client-writes model-content");
      }
    }
    return role == null ? message.toBuilder().role("user").build() : message;
  }

  /**
   * An event a client imports into a new session, checked against the policy: without {@link
   * AdkServer.ClientPolicy#allowsModelContent()}, only the user's own events (author {@code user},
   * role {@code user}, no model parts, no action only an agent or the runner takes); its state
   * delta and increments as any client write.
   *
   * @param index the event's place in the import, for messages
   * @return the event to store (keys sent back unchanged dropped from its delta)
   * @throws HttpError 403 for what the policy refuses, 400 for a {@code temp:} key
   */
  static Event imported(
      AdkServer.ClientPolicy policy,
      Event event,
      int index,
      String app,
      String user,
      @Nullable String session) {
    String at = "events[" + index + "] of the import" + where(app, user, session);
    EventActions actions = event.actions();
    if (!policy.allowsModelContent()) {
      String author = event.author();
      if (author != null && !author.equals("user")) {
        throw new HttpError(
            403,
            "clients may only import the user's events, got author "
                + shown(author)
                + " in "
                + at
                + "; allow it with ClientPolicy.modelContent(true) or --allow-client-writes"
                + " model-content");
      }
      String agentAction = agentAction(actions);
      if (agentAction != null) {
        throw new HttpError(
            403,
            "clients may not import an event with "
                + agentAction
                + " ("
                + at
                + "): only an agent or the runner writes those; allow it with"
                + " ClientPolicy.modelContent(true) or --allow-client-writes model-content");
      }
      Content content = event.content().orElse(null);
      if (content != null) {
        Content checked =
            message(policy, content, "the content of events[" + index + "]", app, user, session);
        if (checked != content) {
          event = event.toBuilder().content(checked).build();
        }
      }
    }
    for (String key : actions.stateIncrements().keySet()) {
      state(policy, Map.of(key, 0), null, Source.IMPORT, app, user, session);
    }
    Map<String, Object> delta = new LinkedHashMap<>(actions.stateDelta());
    Map<String, Object> allowed = state(policy, delta, null, Source.IMPORT, app, user, session);
    if (allowed.size() != delta.size()) {
      event = event.toBuilder().actions(actions.toBuilder().stateDelta(allowed).build()).build();
    }
    return event;
  }

  private static @Nullable String agentAction(EventActions a) {
    if (a.compaction().isPresent()) {
      return "a compaction";
    }
    if (a.rewindBeforeInvocationId().isPresent()) {
      return "a rewind";
    }
    if (a.transferToAgent().isPresent()) {
      return "a transfer";
    }
    if (a.escalate().orElse(false)) {
      return "an escalation";
    }
    if (!a.requestedToolConfirmations().isEmpty()) {
      return "a confirmation request";
    }
    return null;
  }

  private static @Nullable String modelPart(Part p) {
    if (p.functionCall().isPresent()) {
      return "functionCall";
    }
    if (p.executableCode().isPresent()) {
      return "executableCode";
    }
    if (p.codeExecutionResult().isPresent()) {
      return "codeExecutionResult";
    }
    return null;
  }

  private static boolean sameJson(@Nullable Object a, @Nullable Object b) {
    JsonNode x = Wire.MAPPER.valueToTree(a);
    JsonNode y = Wire.MAPPER.valueToTree(b);
    if (x.isNumber() && y.isNumber()) {
      return x.decimalValue().compareTo(y.decimalValue()) == 0;
    }
    return x.equals(y);
  }

  private static String where(String app, String user, @Nullable String session) {
    return (session == null ? "" : " of session " + shown(session))
        + " of user "
        + shown(user)
        + " in app "
        + shown(app);
  }

  /** A name quoted for a message, cut when long. */
  static String shown(String name) {
    if (name.length() <= KEY_SHOWN) {
      return "'" + name + "'";
    }
    return "'" + name.substring(0, KEY_SHOWN) + "…' (" + name.length() + " characters)";
  }
}
