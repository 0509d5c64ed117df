package dev.adk4j.runner;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.SequentialAgent;
import dev.adk4j.events.Event;
import dev.adk4j.events.ToolConfirmation;
import dev.adk4j.internal.tools.PendingCalls;
import dev.adk4j.internal.tools.ResumesThroughChildren;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a message that answers paused calls resumes their invocation: with that invocation's id, on
 * the branch the calls were made on, starting from the agent that made them, or from its highest
 * ancestor reached through sequential agents (so the sequence goes on after it) and agents that
 * resume through their children ({@link ResumesThroughChildren}: workflows).
 *
 * @param start the agent the resumed run starts from
 * @param answers what the agents see as the invocation's message when the run brings none (a
 *     resumption by id: the stored answers to the paused calls); null when the run's message does
 */
record Resumption(
    @Nullable String pausedInvocationId,
    BaseAgent start,
    @Nullable String branch,
    @Nullable Content answers) {

  private static final Logger log = LoggerFactory.getLogger(Resumption.class);

  /**
   * The resumption {@code message} asks for in {@code session}, or null if it holds no function
   * response (an ordinary turn).
   *
   * @throws IllegalArgumentException if the message's function responses do not answer calls the
   *     session paused on (see {@link PendingCalls#resumeOf}), or the agent that made them is not
   *     in {@code root}'s tree
   */
  static @Nullable Resumption of(
      BaseAgent root, Session session, @Nullable Content message, String appName, String userId) {
    if (!answersAnything(message)) {
      return null; // an ordinary message: nothing to resume (and no description to build)
    }
    String where = SessionException.describe(appName, userId, session.id());
    PendingCalls.Resume resume = PendingCalls.resumeOf(session.events(), message, where);
    if (resume == null) {
      return null;
    }
    return at(root, resume.agentName(), resume.invocationId(), resume.branch(), null, where);
  }

  /** Whether {@code message} holds a function response (else it resumes nothing). */
  private static boolean answersAnything(@Nullable Content message) {
    if (message == null) {
      return false;
    }
    for (com.google.genai.types.Part p : message.parts().orElse(List.of())) {
      if (p.functionResponse().isPresent()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The resumption of invocation {@code invocationId} by its id (ADK's {@code run_async(...,
   * invocation_id=...)}), or null if there is nothing to resume: the invocation never paused, or
   * went on after the answers to its paused calls.
   *
   * <p>With a {@code message}, the message must answer the invocation's paused calls (as in {@link
   * #of}). Without one, the answers must be in the session already: function responses authored
   * {@code user} under the invocation's id to its long-running calls or confirmation requests,
   * stored after the invocation's last event of an agent (by {@code appendEvent}, from a job that
   * finished, for instance); the resumed agents see them as the invocation's message.
   *
   * @throws IllegalArgumentException if the session has no event of that invocation, the message
   *     answers no call of it, the invocation still waits for answers to all its paused calls, a
   *     stored answer to a confirmation request is malformed, or the answers are to calls of two
   *     agents
   */
  static @Nullable Resumption byId(
      BaseAgent root,
      Session session,
      String invocationId,
      @Nullable Content message,
      String appName,
      String userId) {
    String where = SessionException.describe(appName, userId, session.id());
    if (message != null) {
      Resumption r = of(root, session, message, appName, userId);
      if (r == null) {
        throw new IllegalArgumentException(
            "The message to resume invocation '"
                + invocationId
                + "' of "
                + where
                + " holds no function response: it must answer the invocation's paused calls"
                + " (leave out the invocation id to start a new turn)");
      }
      if (!invocationId.equals(r.pausedInvocationId())) {
        throw new IllegalArgumentException(
            "The function responses in the message to "
                + where
                + " answer calls of invocation '"
                + r.pausedInvocationId()
                + "', not of invocation '"
                + invocationId
                + "'");
      }
      return r;
    }
    List<Event> events = session.events();
    Map<String, Event> paused = new HashMap<>();
    int lastOfAgent = -1;
    boolean found = false;
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i);
      if (!invocationId.equals(e.invocationId())) {
        continue;
      }
      found = true;
      if (!"user".equals(e.author())) {
        lastOfAgent = i;
        for (String id : e.longRunningToolIds().orElse(Set.of())) {
          paused.put(id, e);
        }
      }
    }
    if (!found) {
      throw new IllegalArgumentException(
          "Invocation '" + invocationId + "' to resume has no event in " + where);
    }
    Set<String> answered = new HashSet<>();
    List<Part> answers = new ArrayList<>();
    Event call = null;
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i);
      if (!"user".equals(e.author()) || !invocationId.equals(e.invocationId())) {
        continue;
      }
      for (FunctionResponse r : e.functionResponses()) {
        String id = r.id().orElse(null);
        Event made = id == null ? null : paused.get(id);
        if (made == null) {
          continue;
        }
        answered.add(id);
        if (i <= lastOfAgent) {
          continue; // the invocation went on after this answer
        }
        if (ToolConfirmation.REQUEST_FUNCTION_NAME.equals(r.name().orElse(null))) {
          PendingCalls.answer(r, where);
        }
        if (call != null && !java.util.Objects.equals(call.author(), made.author())) {
          throw new IllegalArgumentException(
              "The stored answers that resume invocation '"
                  + invocationId
                  + "' of "
                  + where
                  + " answer calls of two agents ('"
                  + call.author()
                  + "', '"
                  + made.author()
                  + "')");
        }
        call = made;
        answers.add(Part.builder().functionResponse(r).build());
      }
    }
    if (call == null) {
      Set<String> waiting = new TreeSet<>(paused.keySet());
      waiting.removeAll(answered);
      if (!waiting.isEmpty()) {
        throw new IllegalArgumentException(
            "Invocation '"
                + invocationId
                + "' of "
                + where
                + " still waits for answers to its calls "
                + waiting
                + ": send them as the run's message, or store them in the session under its id first");
      }
      log.debug("Invocation {} of {} has nothing to resume", invocationId, where);
      return null;
    }
    String author = call.author();
    if (author == null) {
      throw new IllegalArgumentException(
          "The paused calls of invocation '" + invocationId + "' of " + where + " have no agent");
    }
    Content content = Content.builder().role("user").parts(answers).build();
    return at(root, author, invocationId, call.branch().orElse(null), content, where);
  }

  /** Resumes at the agent named {@code agentName}, or its highest sequential ancestor. */
  private static Resumption at(
      BaseAgent root,
      String agentName,
      @Nullable String invocationId,
      @Nullable String branch,
      @Nullable Content answers,
      String where) {
    BaseAgent paused =
        root.findAgent(agentName)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "The function responses in the message to "
                            + where
                            + " answer calls of agent '"
                            + agentName
                            + "', which is not in the tree of agent '"
                            + root.name()
                            + "'"));
    BaseAgent start = paused;
    for (BaseAgent parent = start.parentAgent().orElse(null);
        parent instanceof SequentialAgent || parent instanceof ResumesThroughChildren;
        parent = parent.parentAgent().orElse(null)) {
      start = parent;
    }
    log.debug(
        "Invocation {} of {} resumes: agent '{}' made the answered calls, the run starts at '{}'",
        invocationId,
        where,
        paused.name(),
        start.name());
    return new Resumption(invocationId, start, branch, answers);
  }

  /** The id of the resumed invocation; {@code fresh} if its events carry none. */
  String invocationId(String fresh) {
    return pausedInvocationId == null ? fresh : pausedInvocationId;
  }
}
