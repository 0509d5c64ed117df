-- adk4j DatabaseSessionService schema, version 2 (SQLite): per-session leases.
--
-- An invocation leases its session so that invocations of one session run one at a time across
-- processes. lease_owner/lease_until (epoch millis) hold the current lease; next_owner/next_until
-- let one waiting instance claim the next turn, so that a holder that releases and immediately
-- asks again does not starve the others.

ALTER TABLE adk_sessions ADD COLUMN lease_owner TEXT;
ALTER TABLE adk_sessions ADD COLUMN lease_until INTEGER;
ALTER TABLE adk_sessions ADD COLUMN next_owner TEXT;
ALTER TABLE adk_sessions ADD COLUMN next_until INTEGER;
