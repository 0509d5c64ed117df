-- adk4j schema, version 14 (SQLite): the artifacts of DatabaseArtifactService, beside the sessions.
--
-- (Version 13 is left to the session schema; Flyway applies versions in order, gaps allowed.)
--
-- One row per saved version of an artifact: the Part as JSON text (inline bytes in base64), owned
-- by one session of one user of one app. A file name starting with 'user:' belongs to the user,
-- shared by all their sessions: its rows have the session id '' (as in InMemoryArtifactService).
-- Versions count from 0 per (app, user, session, file name); the primary key makes each version
-- unique, and a save allocates max + 1 in the statement that inserts it. Rows do not reference
-- adk_sessions: artifacts outlive the sessions they were saved in, as in memory.

CREATE TABLE adk_artifacts (
  app_name   TEXT    NOT NULL,
  user_id    TEXT    NOT NULL,
  session_id TEXT    NOT NULL,
  filename   TEXT    NOT NULL,
  version    INTEGER NOT NULL,
  part       TEXT    NOT NULL,
  saved_at   INTEGER NOT NULL,
  PRIMARY KEY (app_name, user_id, session_id, filename, version)
) STRICT, WITHOUT ROWID;
