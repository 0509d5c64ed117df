-- adk4j DatabaseSessionService schema, version 4 (PostgreSQL): event ids are unique per session.
--
-- An append refuses an event whose id the session already holds. It checks inside its
-- transaction, after the revision update that orders the session's appends, so no unique
-- constraint is needed (and a store written before this version, which may hold a duplicate,
-- still migrates). This index makes the check one lookup, whatever the session's length.

CREATE INDEX adk_events_by_id ON adk_events (session_pk, event_id);
