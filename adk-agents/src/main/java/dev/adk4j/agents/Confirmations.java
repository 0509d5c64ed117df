package dev.adk4j.agents;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.events.ToolConfirmation;
import dev.adk4j.internal.tools.PendingCalls;
import dev.adk4j.sessions.SessionException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tool calls that wait for a person: the {@code adk_request_confirmation} call an agent makes when
 * its tools asked for confirmation, and the calls it runs again once the person answered.
 */
final class Confirmations {
  private static final Logger log = LoggerFactory.getLogger(Confirmations.class);

  private Confirmations() {}

  /** Calls run again with a person's answers, and their stored response (null if none). */
  record Resumed(@Nullable Event response, List<FunctionCall> calls) {}

  /**
   * The event by which {@code agent} asks a person to confirm the calls of {@code calls} whose
   * tools asked for it in {@code response}: one {@code adk_request_confirmation} call per such
   * call, each long-running; null if no tool asked.
   */
  static @Nullable Event request(
      LlmAgent agent, InvocationContext ctx, Event response, List<FunctionCall> calls) {
    Map<String, ToolConfirmation> asked = response.actions().requestedToolConfirmations();
    if (asked.isEmpty()) {
      return null;
    }
    List<Part> parts = new ArrayList<>();
    Set<String> ids = new LinkedHashSet<>();
    for (FunctionCall call : calls) {
      ToolConfirmation confirmation = call.id().map(asked::get).orElse(null);
      if (confirmation == null) {
        continue;
      }
      Map<String, Object> original = new LinkedHashMap<>();
      original.put("id", call.id().get());
      original.put("name", call.name().orElse(""));
      original.put("args", call.args().orElse(Map.of()));
      Map<String, Object> asking = new LinkedHashMap<>();
      asking.put("hint", confirmation.hint());
      asking.put("confirmed", false);
      if (confirmation.payload() != null) {
        asking.put("payload", confirmation.payload());
      }
      String id = ctx.idSource().newFunctionCallId();
      ids.add(id);
      parts.add(
          Part.builder()
              .functionCall(
                  FunctionCall.builder()
                      .id(id)
                      .name(ToolConfirmation.REQUEST_FUNCTION_NAME)
                      .args(Map.of("originalFunctionCall", original, "toolConfirmation", asking))
                      .build())
              .build());
    }
    if (parts.isEmpty()) {
      return null;
    }
    return agent
        .newEvent(ctx)
        .content(Content.builder().role("model").parts(parts).build())
        .longRunningToolIds(ids)
        .build();
  }

  /**
   * Runs again, with the person's answers, the calls of {@code agent} whose confirmation requests
   * the invocation's message answers; null if the message answers none of this agent's requests, or
   * they already ran again in this invocation.
   */
  static @Nullable Resumed resume(LlmAgent agent, InvocationContext ctx) {
    Content message = ctx.userContent().orElse(null);
    if (message == null) {
      return null;
    }
    Map<String, FunctionResponse> answers = new LinkedHashMap<>();
    for (Part p : message.parts().orElse(List.of())) {
      FunctionResponse r = p.functionResponse().orElse(null);
      if (r != null
          && r.id().isPresent()
          && ToolConfirmation.REQUEST_FUNCTION_NAME.equals(r.name().orElse(null))) {
        answers.put(r.id().get(), r);
      }
    }
    if (answers.isEmpty()) {
      return null;
    }
    List<Event> events = ctx.session().events();
    String where = SessionException.describe(ctx.appName(), ctx.userId(), ctx.session().id());
    // This agent's own calls, and the calls whose tools asked for a confirmation.
    Map<String, FunctionCall> ownCalls = new HashMap<>();
    Set<String> asked = new HashSet<>();
    int answeredAt = -1;
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i);
      if (agent.name().equals(e.author())) {
        for (FunctionCall fc : e.functionCalls()) {
          fc.id().ifPresent(id -> ownCalls.put(id, fc));
        }
        asked.addAll(e.actions().requestedToolConfirmations().keySet());
      } else if ("user".equals(e.author()) && ctx.invocationId().equals(e.invocationId())) {
        for (FunctionResponse r : e.functionResponses()) {
          if (r.id().isPresent() && answers.containsKey(r.id().get())) {
            answeredAt = i;
          }
        }
      }
    }
    Set<String> ranAgain = new HashSet<>();
    for (int i = answeredAt + 1; answeredAt >= 0 && i < events.size(); i++) {
      if (agent.name().equals(events.get(i).author())) {
        for (FunctionResponse r : events.get(i).functionResponses()) {
          r.id().ifPresent(ranAgain::add);
        }
      }
    }
    List<FunctionCall> calls = new ArrayList<>();
    Map<String, ToolConfirmation> confirmations = new LinkedHashMap<>();
    for (Map.Entry<String, FunctionResponse> answer : answers.entrySet()) {
      FunctionCall request = ownCalls.get(answer.getKey());
      if (request == null) {
        continue; // another agent's request
      }
      String originalId = originalCallId(request);
      FunctionCall original = originalId == null ? null : ownCalls.get(originalId);
      if (original == null || !asked.contains(originalId)) {
        log.warn(
            "Agent '{}' ignores the answer to confirmation request '{}' of {}: it names no call of"
                + " this agent that asked for a confirmation",
            agent.name(),
            answer.getKey(),
            where);
        continue;
      }
      if (ranAgain.contains(originalId)) {
        continue;
      }
      calls.add(original);
      confirmations.put(originalId, PendingCalls.answer(answer.getValue(), where));
    }
    if (calls.isEmpty()) {
      return null;
    }
    log.debug(
        "Agent '{}' runs {} confirmed call(s) again in invocation {}",
        agent.name(),
        calls.size(),
        ctx.invocationId());
    return new Resumed(ToolCalls.run(agent, ctx, calls, confirmations), calls);
  }

  private static @Nullable String originalCallId(FunctionCall request) {
    Object original = request.args().orElse(Map.of()).get("originalFunctionCall");
    if (original instanceof Map<?, ?> map && map.get("id") instanceof String id) {
      return id;
    }
    return null;
  }
}
