package dev.adk4j.internal.sessions;

import dev.adk4j.sessions.Session;
import java.util.Objects;
import java.util.concurrent.ConcurrentMap;
import org.jspecify.annotations.Nullable;

/**
 * The one door to a {@link Session}'s mutable state, for the invocation that owns the copy: the
 * agents module's contexts write the invocation's live state through it (recording every write in
 * the event's delta), and the runner clears the copy's {@code temp:} keys at the end of a turn.
 * Callers of the public API only ever see {@link Session#state()}, which is read-only.
 *
 * <p>Not API: public only because the agents and runner modules live in other packages.
 */
public final class SessionAccess {

  /** Implemented once, by {@link Session} itself, when its class is initialized. */
  public interface Accessor {
    ConcurrentMap<String, Object> liveState(Session session);
  }

  private static volatile @Nullable Accessor accessor;

  private SessionAccess() {}

  /** Called by {@link Session}'s static initializer; a second call is refused. */
  public static synchronized void install(Accessor a) {
    if (accessor != null) {
      throw new IllegalStateException("SessionAccess is already installed");
    }
    accessor = Objects.requireNonNull(a, "accessor");
  }

  /**
   * The mutable state map behind {@code session.state()}: the live state of the invocation that
   * owns this copy. Writes to it are not tracked: go through a {@code State}.
   */
  public static ConcurrentMap<String, Object> liveState(Session session) {
    Accessor a = accessor;
    if (a == null) {
      // Unreachable: a Session instance exists, so its class (whose initializer installs the
      // accessor) is initialized.
      throw new IllegalStateException("Session class not initialized");
    }
    return a.liveState(session);
  }
}
