-- adk4j DatabaseSessionService schema, version 1 (SQLite).
--
-- State is stored one row per key so that an append touches only the keys of its delta.
-- Events are keyed by (session_pk, seq); seq is the session revision the append produced, so
-- "the last N events" is a backward range scan of the primary key that stops after N rows.
-- JSON values are TEXT holding the JSON text written by dev.adk4j.state.Json.

CREATE TABLE adk_sessions (
  pk             INTEGER PRIMARY KEY,
  app_name       TEXT    NOT NULL,
  user_id        TEXT    NOT NULL,
  session_id     TEXT    NOT NULL,
  revision       INTEGER NOT NULL,
  update_seconds INTEGER NOT NULL,
  update_nanos   INTEGER NOT NULL,
  UNIQUE (app_name, user_id, session_id)
) STRICT;

CREATE TABLE adk_events (
  session_pk INTEGER NOT NULL REFERENCES adk_sessions (pk) ON DELETE CASCADE,
  seq        INTEGER NOT NULL,
  event_id   TEXT    NOT NULL,
  event_time INTEGER NOT NULL,
  event      TEXT    NOT NULL,
  PRIMARY KEY (session_pk, seq)
) STRICT;

CREATE INDEX adk_events_by_time ON adk_events (session_pk, event_time);

CREATE TABLE adk_app_state (
  app_name    TEXT NOT NULL,
  state_key   TEXT NOT NULL,
  state_value TEXT NOT NULL,
  PRIMARY KEY (app_name, state_key)
) STRICT, WITHOUT ROWID;

CREATE TABLE adk_user_state (
  app_name    TEXT NOT NULL,
  user_id     TEXT NOT NULL,
  state_key   TEXT NOT NULL,
  state_value TEXT NOT NULL,
  PRIMARY KEY (app_name, user_id, state_key)
) STRICT, WITHOUT ROWID;

CREATE TABLE adk_session_state (
  session_pk  INTEGER NOT NULL REFERENCES adk_sessions (pk) ON DELETE CASCADE,
  state_key   TEXT    NOT NULL,
  state_value TEXT    NOT NULL,
  PRIMARY KEY (session_pk, state_key)
) STRICT, WITHOUT ROWID;
