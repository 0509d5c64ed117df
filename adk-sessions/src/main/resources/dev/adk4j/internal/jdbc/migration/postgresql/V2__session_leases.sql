-- adk4j DatabaseSessionService schema, version 2 (PostgreSQL): per-session leases.
--
-- An invocation leases its session so that invocations of one session run one at a time across
-- instances. lease_owner/lease_until (epoch millis, database clock) hold the current lease;
-- next_owner/next_until let one waiting instance claim the next turn, so that a holder that
-- releases and immediately asks again does not starve the others.

ALTER TABLE adk_sessions
  ADD COLUMN lease_owner TEXT,
  ADD COLUMN lease_until BIGINT,
  ADD COLUMN next_owner  TEXT,
  ADD COLUMN next_until  BIGINT;
