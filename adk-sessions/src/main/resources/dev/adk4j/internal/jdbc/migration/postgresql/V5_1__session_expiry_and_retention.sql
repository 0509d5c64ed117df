-- adk4j DatabaseSessionService schema, version 5.1 (PostgreSQL): session expiry and event retention.
--
-- ttl_millis is a session's time to live (NULL: it never expires); expire_at (epoch ms, by the
-- service's clock) is its last activity plus ttl_millis, set at creation and by every append.
-- Reads and appends treat a session whose expire_at has passed as absent; the cleanup deletes
-- such sessions in batches through adk_sessions_by_expiry, which holds only expiring sessions.
--
-- trimmed_seq is the highest sequence number retention deleted events up to (0: none), so that a
-- session already trimmed is not picked again; adk_sessions_by_idle finds idle sessions that still
-- have events to trim by their last update. (Numbered 5.1 so that it orders after a version 5 added beside it.)

ALTER TABLE adk_sessions ADD COLUMN ttl_millis BIGINT;
ALTER TABLE adk_sessions ADD COLUMN expire_at BIGINT;
ALTER TABLE adk_sessions ADD COLUMN trimmed_seq BIGINT NOT NULL DEFAULT 0;

CREATE INDEX adk_sessions_by_expiry ON adk_sessions (expire_at) WHERE expire_at IS NOT NULL;
-- Partial, so that no other query can use it (none says revision > trimmed_seq): the pages of
-- listSessions keep reading adk_sessions_by_update.
CREATE INDEX adk_sessions_by_idle ON adk_sessions (update_seconds) WHERE revision > trimmed_seq;
