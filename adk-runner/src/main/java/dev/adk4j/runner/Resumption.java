package dev.adk4j.runner;

import com.google.genai.types.Content;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.SequentialAgent;
import dev.adk4j.internal.tools.PendingCalls;
import dev.adk4j.internal.tools.ResumesThroughChildren;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionException;
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
 */
record Resumption(@Nullable String pausedInvocationId, BaseAgent start, @Nullable String branch) {

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
    String where = SessionException.describe(appName, userId, session.id());
    PendingCalls.Resume resume = PendingCalls.resumeOf(session.events(), message, where);
    if (resume == null) {
      return null;
    }
    BaseAgent paused =
        root.findAgent(resume.agentName())
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "The function responses in the message to "
                            + where
                            + " answer calls of agent '"
                            + resume.agentName()
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
        resume.invocationId(),
        where,
        paused.name(),
        start.name());
    return new Resumption(resume.invocationId(), start, resume.branch());
  }

  /** The id of the resumed invocation; {@code fresh} if its events carry none. */
  String invocationId(String fresh) {
    return pausedInvocationId == null ? fresh : pausedInvocationId;
  }
}
