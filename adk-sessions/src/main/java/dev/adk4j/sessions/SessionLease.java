package dev.adk4j.sessions;

/**
 * The exclusive right to run an invocation on one session, across every thread and process that
 * shares the session store. Taken with {@link BaseSessionService#acquireLease}, or by the first
 * append through a copy attached to a {@link BaseSessionService#leaseOnFirstAppend} lease; the
 * {@code Runner} holds one for each invocation.
 *
 * <p>A database lease is stored with the session (owner, expiry), renewed in the background while
 * held, and released by {@link #close()}; if its holder dies, another instance takes it over once
 * it expires. While a lease is held, appends to the session are accepted only through a {@link
 * Session} copy {@linkplain #attach attached} to it (or, once it has expired, from anyone):
 * anything else fails with {@link SessionBusyException}, so an instance that lost its lease cannot
 * write into the invocation that took over.
 *
 * <p>Holding a lease holds no database transaction or lock.
 */
public interface SessionLease extends AutoCloseable {

  /** This lease's unique owner token. */
  String owner();

  /** Whether the lease is still held: false once released, or once renewal found it taken over. */
  boolean isHeld();

  /**
   * Whether this lease was taken from a holder that never released it: its lease expired, or its
   * process on this host was gone. That holder's invocation ended without finishing, so its turn
   * may be open (a user message with no answer); the {@code Runner} closes such a turn with an
   * {@code INTERRUPTED} error event before its own. False for a lease that was free, and for
   * services without leases.
   */
  default boolean tookOver() {
    return false;
  }

  /** Makes appends through {@code session} count as this lease's. */
  default void attach(Session session) {
    session.bindLease(owner());
  }

  /** Releases the lease, if still held. Idempotent; never throws. */
  @Override
  void close();

  /**
   * Releases the lease saying that its invocation did not finish: the closing events of its turn
   * could not be stored (the store failed under them). The next holder then sees {@link
   * #tookOver()} true and closes the turn, as after a holder that died. Idempotent; never throws.
   * The default is {@link #close()}.
   */
  default void closeUnfinished() {
    close();
  }

  /** A lease that guards nothing, for services with nothing to lease. */
  static SessionLease none() {
    return new SessionLease() {
      @Override
      public String owner() {
        return "none";
      }

      @Override
      public boolean isHeld() {
        return true;
      }

      @Override
      public void attach(Session session) {}

      @Override
      public void close() {}
    };
  }
}
