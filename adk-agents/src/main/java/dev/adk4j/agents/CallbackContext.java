package dev.adk4j.agents;

import com.google.genai.types.Part;
import dev.adk4j.events.EventActions;
import dev.adk4j.state.State;
import io.reactivex.rxjava3.core.Single;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The context of a callback (and, as {@code ToolContext}, of a tool): a {@link ReadonlyContext}
 * whose {@link #state()} is writable and records every write into the delta of the event this step
 * produces. Writes are visible at once to every later read in the invocation.
 *
 * <p>{@link #actions()} is a snapshot of what the step's event will carry: the recorded delta plus
 * control flags. {@link #setActions(EventActions)} replaces the flags and applies the given delta
 * through the state, so a write already made is never lost. Thread-safe.
 */
public class CallbackContext extends ReadonlyContext {

  private final State state;

  /** The artifacts saved through this context: name to version; made at the first save. */
  private volatile @Nullable ConcurrentHashMap<String, Integer> artifactDelta;

  private volatile EventActions flags = EventActions.empty();

  public CallbackContext(InvocationContext invocationContext) {
    super(invocationContext);
    this.state = new State(liveStateOf(invocationContext));
  }

  private static final java.lang.invoke.VarHandle ARTIFACT_DELTA;

  static {
    try {
      ARTIFACT_DELTA =
          java.lang.invoke.MethodHandles.lookup()
              .findVarHandle(CallbackContext.class, "artifactDelta", ConcurrentHashMap.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The artifact delta, made (once, whoever wins the race) if there is none yet. */
  @SuppressWarnings("unchecked")
  private ConcurrentHashMap<String, Integer> artifacts() {
    ConcurrentHashMap<String, Integer> m = artifactDelta;
    if (m != null) {
      return m;
    }
    ConcurrentHashMap<String, Integer> fresh = new ConcurrentHashMap<>();
    ConcurrentHashMap<String, Integer> witness =
        (ConcurrentHashMap<String, Integer>) ARTIFACT_DELTA.compareAndExchange(this, null, fresh);
    return witness == null ? fresh : witness;
  }

  /** The live state; every write is recorded in this step's delta. */
  @Override
  public State state() {
    return state;
  }

  /** The actions of the event this step produces: the recorded delta and flags. */
  public EventActions actions() {
    EventActions f = flags;
    ConcurrentHashMap<String, Integer> artifacts = artifactDelta;
    if (f.isEmpty() && !state.hasDelta() && (artifacts == null || artifacts.isEmpty())) {
      return f; // nothing recorded: the empty actions, not a copy of them
    }
    return f.toBuilder().state(state).artifactDelta(artifacts).build();
  }

  /**
   * Sets the control flags (transfer, escalate, skip summarization, and ADK's end of invocation,
   * end of agent, auth requests and deleted artifacts) from {@code actions} and applies its state
   * delta (and increments) through {@link #state()}; writes already made stay unless {@code
   * actions} changes the same key.
   */
  public void setActions(EventActions actions) {
    actions
        .stateDelta()
        .forEach(
            (key, value) -> {
              if (!actions.stateIncrements().containsKey(key)) {
                state.put(key, value);
              }
            });
    actions.stateIncrements().forEach(state::increment);
    if (!actions.artifactDelta().isEmpty()) {
      artifacts().putAll(actions.artifactDelta());
    }
    flags =
        EventActions.builder()
            .transferToAgent(actions.transferToAgent().orElse(null))
            .escalate(actions.escalate().orElse(null))
            .skipSummarization(actions.skipSummarization().orElse(null))
            .endInvocation(actions.endInvocation().orElse(null))
            .endOfAgent(actions.endOfAgent())
            .requestedAuthConfigs(actions.requestedAuthConfigs())
            .deletedArtifactIds(actions.deletedArtifactIds())
            .build();
  }

  /** Whether this step recorded anything an event must carry. */
  public boolean hasActions() {
    ConcurrentHashMap<String, Integer> artifacts = artifactDelta;
    return state.hasDelta() || (artifacts != null && !artifacts.isEmpty()) || !flags.isEmpty();
  }

  /**
   * Saves an artifact of this session and records its version in this step's actions.
   *
   * @throws IllegalStateException (through the Single) if no artifact service is configured
   * @throws IllegalArgumentException (through the Single) if {@code filename} is not a valid name
   *     ({@link dev.adk4j.internal.artifacts.ArtifactNames})
   */
  public Single<Integer> saveArtifact(String filename, Part artifact) {
    try {
      checkArtifactName(filename);
    } catch (IllegalArgumentException e) {
      return Single.error(e);
    }
    return Optional.ofNullable(invocationContext.artifactService())
        .map(
            a ->
                a.saveArtifact(
                        invocationContext.session().appName(),
                        invocationContext.session().userId(),
                        invocationContext.session().id(),
                        filename,
                        artifact)
                    .doOnSuccess(v -> artifacts().put(filename, v)))
        .orElse(
            Single.error(
                new IllegalStateException(
                    "Cannot save artifact '"
                        + filename
                        + "': no artifact service is configured for agent '"
                        + agentName()
                        + "'")));
  }

  /** Same as {@code state().put(key, value)}. */
  public void putState(String key, @Nullable Object value) {
    state.put(key, value);
  }
}
