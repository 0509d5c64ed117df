-- adk4j schema, version 11 (PostgreSQL): an index of state changes, for stateHistory.
--
-- One row per key of each stored event's state delta, written by the append in the same
-- transaction as the event, pointing at the event (session_pk, seq); deleted with its session.
-- pk numbers the changes in the order the appends made them (appends writing one key serialize
-- on its state row). stateHistory finds a key's changes through adk_state_history_by_session (a
-- session key) or adk_state_history_by_key (a user: or app: key, across sessions) and reads only
-- those events, never the whole session.
--
-- Events stored before this version are indexed here, once, in the order of their time.

CREATE TABLE adk_state_history (
  pk         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  session_pk BIGINT NOT NULL REFERENCES adk_sessions (pk) ON DELETE CASCADE,
  seq        BIGINT NOT NULL,
  app_name   TEXT   NOT NULL,
  user_id    TEXT   NOT NULL,
  state_key  TEXT   NOT NULL
);

INSERT INTO adk_state_history (session_pk, seq, app_name, user_id, state_key)
SELECT e.session_pk, e.seq, s.app_name, s.user_id, d.key
FROM adk_events e
JOIN adk_sessions s ON s.pk = e.session_pk
CROSS JOIN LATERAL jsonb_object_keys(
  CASE WHEN jsonb_typeof(e.event -> 'actions' -> 'stateDelta') = 'object'
       THEN e.event -> 'actions' -> 'stateDelta' ELSE '{}'::jsonb END) AS d(key)
ORDER BY e.event_time, e.session_pk, e.seq, d.key;

CREATE INDEX adk_state_history_by_session ON adk_state_history (session_pk, state_key, seq);

CREATE INDEX adk_state_history_by_key ON adk_state_history (app_name, state_key, user_id, pk);
