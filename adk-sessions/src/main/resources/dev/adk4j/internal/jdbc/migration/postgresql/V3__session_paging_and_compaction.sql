-- adk4j DatabaseSessionService schema, version 3 (PostgreSQL): cost independent of the store's size.
--
-- adk_sessions_by_update serves the pages of listSessions: a user's sessions, most recently
-- updated first, ties by session id in Unicode code point order (COLLATE "C", whatever the
-- database's locale), read from the position a page token names (keyset paging), so a page costs
-- the same whatever the number of sessions.
--
-- last_compaction_seq is the seq of the session's latest compaction event (NULL: none); appends
-- keep it up to date, so getSession(fromLatestCompaction) reads from it without scanning history.
-- Sessions stored before this version get it from their events here, once.

ALTER TABLE adk_sessions ADD COLUMN last_compaction_seq BIGINT;

UPDATE adk_sessions s
SET last_compaction_seq = c.seq
FROM (
  SELECT session_pk, max(seq) AS seq FROM adk_events
  WHERE jsonb_typeof(event -> 'actions' -> 'compaction') = 'object'
  GROUP BY session_pk
) c
WHERE c.session_pk = s.pk;

CREATE INDEX adk_sessions_by_update
  ON adk_sessions (app_name, user_id, update_seconds DESC, update_nanos DESC, session_id COLLATE "C");
