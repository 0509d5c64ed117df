-- adk4j DatabaseSessionService schema, version 15 (PostgreSQL): the queue of a session's lease.
--
-- An invocation that finds its session leased by another takes a place in this queue, in the
-- transaction of its first attempt; the lease then goes to the live waiter with the lowest seq,
-- so that waiters in any number of processes are served in the order they arrived. A waiter keeps
-- its place by refreshing wait_until (epoch ms, the service's clock) while it waits; a row whose
-- wait_until has passed is a waiter that stopped or gave up and is skipped and deleted. next_owner and
-- next_until (version 2's single claim on the next turn) are no longer used.

CREATE TABLE adk_session_waiters (
  session_pk BIGINT NOT NULL REFERENCES adk_sessions (pk) ON DELETE CASCADE,
  seq        BIGINT NOT NULL,
  owner      TEXT   NOT NULL,
  wait_until BIGINT NOT NULL,
  CONSTRAINT adk_session_waiters_pkey PRIMARY KEY (session_pk, seq)
);
