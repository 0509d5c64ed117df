-- adk4j DatabaseSessionService schema, version 1 (PostgreSQL).
--
-- State is stored one row per key so that an append touches only the keys of its delta.
-- Events are keyed by (session_pk, seq); seq is the session revision the append produced, so
-- "the last N events" is a backward range scan of the primary key that stops after N rows.
-- JSON values are JSONB.

CREATE TABLE adk_sessions (
  pk             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  app_name       TEXT    NOT NULL,
  user_id        TEXT    NOT NULL,
  session_id     TEXT    NOT NULL,
  revision       BIGINT  NOT NULL,
  update_seconds BIGINT  NOT NULL,
  update_nanos   INTEGER NOT NULL,
  CONSTRAINT adk_sessions_natural_key UNIQUE (app_name, user_id, session_id)
);

CREATE TABLE adk_events (
  session_pk BIGINT NOT NULL REFERENCES adk_sessions (pk) ON DELETE CASCADE,
  seq        BIGINT NOT NULL,
  event_id   TEXT   NOT NULL,
  event_time BIGINT NOT NULL,
  event      JSONB  NOT NULL,
  PRIMARY KEY (session_pk, seq)
);

CREATE INDEX adk_events_by_time ON adk_events (session_pk, event_time);

CREATE TABLE adk_app_state (
  app_name    TEXT  NOT NULL,
  state_key   TEXT  NOT NULL,
  state_value JSONB NOT NULL,
  PRIMARY KEY (app_name, state_key)
);

CREATE TABLE adk_user_state (
  app_name    TEXT  NOT NULL,
  user_id     TEXT  NOT NULL,
  state_key   TEXT  NOT NULL,
  state_value JSONB NOT NULL,
  PRIMARY KEY (app_name, user_id, state_key)
);

CREATE TABLE adk_session_state (
  session_pk  BIGINT NOT NULL REFERENCES adk_sessions (pk) ON DELETE CASCADE,
  state_key   TEXT   NOT NULL,
  state_value JSONB  NOT NULL,
  PRIMARY KEY (session_pk, state_key)
);
