-- adk4j schema, version 12 (PostgreSQL): the state history index rebuilt from the stored events.
--
-- Before this version an append indexed only the keys of its event's delta as the caller wrote
-- it, so a key changed only by an increment (State.increment) had no rows although the stored
-- event's stateDelta records its result. The index is rebuilt here, once, from every stored
-- event's stateDelta, in the order of the events' time (as version 11 indexed older events).

DELETE FROM adk_state_history;

INSERT INTO adk_state_history (session_pk, seq, app_name, user_id, state_key)
SELECT e.session_pk, e.seq, s.app_name, s.user_id, d.key
FROM adk_events e
JOIN adk_sessions s ON s.pk = e.session_pk
CROSS JOIN LATERAL jsonb_object_keys(
  CASE WHEN jsonb_typeof(e.event -> 'actions' -> 'stateDelta') = 'object'
       THEN e.event -> 'actions' -> 'stateDelta' ELSE '{}'::jsonb END) AS d(key)
ORDER BY e.event_time, e.session_pk, e.seq, d.key;
