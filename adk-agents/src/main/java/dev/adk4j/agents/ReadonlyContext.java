package dev.adk4j.agents;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.artifacts.ListArtifactsResponse;
import dev.adk4j.internal.artifacts.ArtifactNames;
import dev.adk4j.state.ReadonlyState;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What instruction providers and other read-only hooks see of an invocation: its ids, the user's
 * message, the live state (read only) and the session's artifacts.
 *
 * <p>A context of this very class is truly read only: its {@link #state()} has no write method, and
 * one cast to a {@link java.util.Map} refuses every write with an {@link
 * UnsupportedOperationException} naming the key. Subclasses ({@link CallbackContext}, {@code
 * ToolContext}) add writable state; {@link #readonlyView} turns any of them back into a read-only
 * context, which is what instruction providers get.
 */
public class ReadonlyContext {

  protected final InvocationContext invocationContext;

  public ReadonlyContext(InvocationContext invocationContext) {
    this.invocationContext = Objects.requireNonNull(invocationContext, "invocationContext");
  }

  /**
   * A read-only context over the invocation of {@code context}: {@code context} itself if it is a
   * plain {@link ReadonlyContext}, else a new one over the same invocation (so a {@link
   * CallbackContext} passed where only reads are allowed cannot be written through).
   */
  public static ReadonlyContext readonlyView(ReadonlyContext context) {
    return context.getClass() == ReadonlyContext.class
        ? context
        : new ReadonlyContext(context.invocationContext);
  }

  /**
   * The live state of the invocation, read only: app, user, session and temp keys. Reads see later
   * writes; a value read is a copy, so changing it changes nothing. As a {@link java.util.Map} it
   * refuses every write with an {@link UnsupportedOperationException} naming the key.
   */
  public ReadonlyState state() {
    return ReadonlyState.of(liveStateOf(invocationContext));
  }

  /**
   * The live state of {@code ctx}'s invocation. A context that is a test double (a Mockito mock of
   * {@link InvocationContext}, as ADK for Java's own tests make one) answers null from the
   * package-private {@code liveState()}: it gets a copy of its session's state (or none), so that
   * callback and tool contexts made from it work on state of their own.
   */
  static java.util.concurrent.ConcurrentMap<String, Object> liveStateOf(InvocationContext ctx) {
    java.util.concurrent.ConcurrentMap<String, Object> live = ctx.liveState();
    if (live != null) {
      return live;
    }
    dev.adk4j.sessions.@Nullable Session session = ctx.session();
    return session == null
        ? new java.util.concurrent.ConcurrentHashMap<>()
        : new java.util.concurrent.ConcurrentHashMap<>(session.state());
  }

  /**
   * The invocation this context belongs to, as ADK for Java offers it (for example to call {@link
   * InstructionUtils#injectSessionState(InvocationContext, String)}). It is for reading: {@code
   * invocationContext().session().state()} is read-only; write through a {@link CallbackContext}'s
   * {@link CallbackContext#state() state()}, which records the write in the event's delta.
   */
  public InvocationContext invocationContext() {
    return invocationContext;
  }

  public String invocationId() {
    return invocationContext.invocationId();
  }

  /** The name of the agent running. */
  public String agentName() {
    return invocationContext.agent().name();
  }

  public String appName() {
    return invocationContext.session().appName();
  }

  public String userId() {
    return invocationContext.session().userId();
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
    return Optional.ofNullable(invocationContext.artifactService())
        .map(
            a ->
                a.loadArtifact(
                    invocationContext.session().appName(),
                    invocationContext.session().userId(),
                    invocationContext.session().id(),
                    filename,
                    version))
        .orElse(Maybe.empty());
  }

  /**
   * The latest version of an artifact of this session; see {@link #loadArtifact(String, Optional)}.
   */
  public Maybe<Part> loadArtifact(String filename) {
    return loadArtifact(filename, Optional.empty());
  }

  /** A version of an artifact of this session; see {@link #loadArtifact(String, Optional)}. */
  public Maybe<Part> loadArtifact(String filename, int version) {
    return loadArtifact(filename, Optional.of(version));
  }

  /**
   * The names of this session's artifacts (empty if no artifact service is configured), as ADK for
   * Java's {@code CallbackContext.listArtifacts()} gives them.
   */
  public Single<List<String>> listArtifacts() {
    return Optional.ofNullable(invocationContext.artifactService())
        .map(
            a ->
                a.listArtifactKeys(
                        invocationContext.session().appName(),
                        invocationContext.session().userId(),
                        invocationContext.session().id())
                    .map(ListArtifactsResponse::filenames))
        .orElse(Single.just(List.of()));
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
