package dev.adk4j.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import dev.adk4j.events.Event;
import dev.adk4j.sessions.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One eval case in ADK's format: its id ({@code eval_id}), the conversation (the expected
 * invocations, in order), how its session starts ({@code session_input}), its rubrics, and adk4j's
 * state checks ({@code adk4j_state_checks}, see {@link StateExpectation}). Immutable; backed by the
 * JSON it was read from, which {@link EvalSet#toJson()} writes back unchanged.
 */
public final class EvalCase {
  private final ObjectNode node;
  private final String evalId;
  private final List<Invocation> conversation;
  private final @Nullable SessionInput sessionInput;
  private final List<Rubric> rubrics;
  private final List<StateExpectation> stateChecks;

  private EvalCase(
      ObjectNode node,
      String evalId,
      List<Invocation> conversation,
      @Nullable SessionInput sessionInput,
      List<Rubric> rubrics,
      List<StateExpectation> stateChecks) {
    this.node = node;
    this.evalId = evalId;
    this.conversation = List.copyOf(conversation);
    this.sessionInput = sessionInput;
    this.rubrics = List.copyOf(rubrics);
    this.stateChecks = List.copyOf(stateChecks);
  }

  /** A case as ADK writes it (snake_case). */
  public static EvalCase of(
      String evalId, List<Invocation> conversation, @Nullable SessionInput sessionInput) {
    if (evalId.isBlank()) {
      throw new IllegalArgumentException("eval_id is blank");
    }
    ObjectNode n = Nodes.F.objectNode();
    n.put("eval_id", evalId);
    ArrayNode conv = n.putArray("conversation");
    conversation.forEach(i -> conv.add(i.node()));
    if (sessionInput != null) {
      ObjectNode si = n.putObject("session_input");
      si.put("app_name", sessionInput.appName());
      si.put("user_id", sessionInput.userId());
      si.set("state", Nodes.tree(sessionInput.state()));
    }
    n.put("creation_timestamp", System.currentTimeMillis() / 1000.0);
    return new EvalCase(n, evalId, conversation, sessionInput, List.of(), List.of());
  }

  /**
   * A case made from a session's conversation, as ADK's server makes one when the dev UI adds the
   * current session to an eval set: one invocation per invocation id of the session's events that
   * has a message from the user (events that only change state, such as a {@code PATCH}, make
   * none), with that message, the tool calls and responses of the invocation in order, and its last
   * final response from an agent as the expected one. The case starts from an empty state for the
   * session's app and user ({@code session_input}).
   */
  public static EvalCase fromSession(String evalId, Session session) {
    java.util.Map<String, List<Event>> byInvocation = new java.util.LinkedHashMap<>();
    for (Event e : session.events()) {
      if (e.partial().orElse(false)) {
        continue;
      }
      String invocationId = e.invocationId();
      String id = invocationId == null ? "" : invocationId;
      byInvocation.computeIfAbsent(id, k -> new ArrayList<>()).add(e);
    }
    List<Invocation> conversation = new ArrayList<>();
    for (java.util.Map.Entry<String, List<Event>> inv : byInvocation.entrySet()) {
      Content user = null;
      Content answer = null;
      List<FunctionCall> calls = new ArrayList<>();
      List<FunctionResponse> responses = new ArrayList<>();
      for (Event e : inv.getValue()) {
        if ("user".equals(e.author())) {
          if (user == null && e.content().isPresent()) {
            user = e.content().get();
          }
          continue;
        }
        calls.addAll(e.functionCalls());
        responses.addAll(e.functionResponses());
        if (e.finalResponse() && e.content().isPresent()) {
          answer = e.content().get();
        }
      }
      if (user != null) {
        conversation.add(Invocation.of(inv.getKey(), user, answer, calls, responses));
      }
    }
    return of(
        evalId,
        conversation,
        new SessionInput(session.appName(), session.userId(), java.util.Map.of()));
  }

  static EvalCase parse(JsonNode raw, String path, String source) {
    ObjectNode n = Nodes.object(raw, path, source);
    String id = Nodes.text(n, "eval_id", path, source);
    if (id.isBlank()) {
      throw new EvalFormatException(source, path + ".eval_id", "is blank");
    }
    if (Nodes.field(n, "conversation_scenario") != null) {
      throw new EvalFormatException(
          source,
          path + ".conversation_scenario",
          "user-simulated conversations are not supported by adk4j; give a conversation");
    }
    JsonNode conv = Nodes.required(n, "conversation", path, source);
    List<Invocation> invocations = new ArrayList<>();
    int i = 0;
    for (JsonNode inv : Nodes.array(conv, path + ".conversation", source)) {
      invocations.add(Invocation.parse(inv, path + ".conversation[" + i++ + "]", source));
    }
    SessionInput input = null;
    JsonNode si = Nodes.field(n, "session_input");
    if (si != null) {
      String sp = path + ".session_input";
      Nodes.object(si, sp, source);
      JsonNode state = Nodes.field(si, "state");
      input =
          new SessionInput(
              Nodes.text(si, "app_name", sp, source),
              Nodes.text(si, "user_id", sp, source),
              state == null ? java.util.Map.of() : Nodes.map(state, sp + ".state", source));
    }
    List<StateExpectation> checks = StateExpectation.parseAll(n, path, source);
    for (int c = 0; c < checks.size(); c++) {
      if (checks.get(c).invocationIndex() >= invocations.size()) {
        throw new EvalFormatException(
            source,
            path + "." + StateExpectation.FIELD + "[" + c + "].invocation_index",
            "the conversation has " + invocations.size() + " invocations");
      }
    }
    return new EvalCase(
        n.deepCopy(), id, invocations, input, Invocation.parseRubrics(n, path, source), checks);
  }

  public String evalId() {
    return evalId;
  }

  public List<Invocation> conversation() {
    return conversation;
  }

  public Optional<SessionInput> sessionInput() {
    return Optional.ofNullable(sessionInput);
  }

  /** The rubrics of every invocation of the case ({@code rubrics} of the case). */
  public List<Rubric> rubrics() {
    return rubrics;
  }

  /** adk4j's state checks ({@code adk4j_state_checks}). */
  public List<StateExpectation> stateChecks() {
    return stateChecks;
  }

  /** A copy with these state checks in place of the case's. */
  public EvalCase withStateChecks(List<StateExpectation> checks) {
    ObjectNode n = node.deepCopy();
    ArrayNode list = n.putArray(StateExpectation.FIELD);
    for (StateExpectation c : checks) {
      if (c.invocationIndex() >= conversation.size()) {
        throw new IllegalArgumentException(
            "Case "
                + evalId
                + ": state check for invocation "
                + c.invocationIndex()
                + " of "
                + conversation.size());
      }
      list.add(c.toNode());
    }
    return new EvalCase(n, evalId, conversation, sessionInput, rubrics, checks);
  }

  /** A copy with these rubrics for every invocation. */
  public EvalCase withRubrics(List<Rubric> newRubrics) {
    ObjectNode n = node.deepCopy();
    ArrayNode list = n.putArray("rubrics");
    for (Rubric r : newRubrics) {
      ObjectNode o = list.addObject();
      o.put("rubric_id", r.id());
      o.putObject("rubric_content").put("text_property", r.text());
    }
    return new EvalCase(n, evalId, conversation, sessionInput, newRubrics, stateChecks);
  }

  ObjectNode node() {
    return node.deepCopy();
  }

  /** This case's JSON. */
  public String toJson() {
    return Nodes.pretty(node);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EvalCase other && node.equals(other.node);
  }

  @Override
  public int hashCode() {
    return node.hashCode();
  }

  @Override
  public String toString() {
    return "EvalCase{" + evalId + ", " + conversation.size() + " invocations}";
  }
}
