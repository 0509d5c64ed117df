package dev.adk4j.agents;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.artifacts.ArtifactNames;
import dev.adk4j.state.ReadonlyState;
import io.reactivex.rxjava3.core.Maybe;
import java.util.Objects;
import java.util.Optional;

/**
 * What instruction providers and other read-only hooks see of an invocation: its ids, the user's
 * message, the live state (read only) and the session's artifacts.
 */
public class ReadonlyContext {

  protected final InvocationContext invocationContext;

  public ReadonlyContext(InvocationContext invocationContext) {
    this.invocationContext = Objects.requireNonNull(invocationContext, "invocationContext");
  }

  /** The live state of the invocation, read only: app, user, session and temp keys. */
  public ReadonlyState state() {
    return ReadonlyState.of(invocationContext.session().state());
  }

  public String invocationId() {
    return invocationContext.invocationId();
  }

  /** The name of the agent running. */
  public String agentName() {
    return invocationContext.agent().name();
  }

  public String appName() {
    return invocationContext.appName();
  }

  public String userId() {
    return invocationContext.userId();
  }

  public String sessionId() {
    return invocationContext.session().id();
  }

  public Optional<Content> userContent() {
    return invocationContext.userContent();
  }

  /** The agent path of the running branch, if any. */
  public Optional<String> branch() {
    return invocationContext.branch();
  }

  /**
   * Loads a version (the latest when empty) of an artifact of this session; completes empty if it
   * does not exist or no artifact service is configured, and fails with an {@link
   * IllegalArgumentException} if {@code filename} is not a valid name ({@link ArtifactNames}).
   */
  public Maybe<Part> loadArtifact(String filename, Optional<Integer> version) {
    try {
      checkArtifactName(filename);
    } catch (IllegalArgumentException e) {
      return Maybe.error(e);
    }
    return invocationContext
        .artifactService()
        .map(
            a ->
                a.loadArtifact(
                    invocationContext.appName(),
                    invocationContext.userId(),
                    invocationContext.session().id(),
                    filename,
                    version))
        .orElse(Maybe.empty());
  }

  /**
   * @throws IllegalArgumentException naming this agent and session if {@link ArtifactNames} refuses
   *     {@code filename}
   */
  void checkArtifactName(String filename) {
    try {
      ArtifactNames.check(filename);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          e.getMessage() + " (agent '" + agentName() + "', session '" + sessionId() + "')", e);
    }
  }
}
