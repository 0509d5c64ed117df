-- adk4j DatabaseSessionService schema, version 3 (SQLite): cost independent of the store's size.
--
-- adk_sessions_by_update serves the pages of listSessions: a user's sessions, most recently
-- updated first, ties by session id (BINARY: Unicode code point order), read from the position a
-- page token names (keyset paging), so a page costs the same whatever the number of sessions.
--
-- last_compaction_seq is the seq of the session's latest compaction event (NULL: none); appends
-- keep it up to date, so getSession(fromLatestCompaction) reads from it without scanning history.
-- Sessions stored before this version get it from their events here, once.

ALTER TABLE adk_sessions ADD COLUMN last_compaction_seq INTEGER;

UPDATE adk_sessions
SET last_compaction_seq = (
  SELECT max(e.seq) FROM adk_events e
  WHERE e.session_pk = adk_sessions.pk
    AND CASE WHEN instr(e.event, '"compaction"') > 0 AND json_valid(e.event)
        THEN json_type(e.event, '$.actions.compaction') END = 'object')
WHERE pk IN (
  SELECT e.session_pk FROM adk_events e
  WHERE CASE WHEN instr(e.event, '"compaction"') > 0 AND json_valid(e.event)
        THEN json_type(e.event, '$.actions.compaction') END = 'object');

CREATE INDEX adk_sessions_by_update
  ON adk_sessions (app_name, user_id, update_seconds DESC, update_nanos DESC, session_id);
