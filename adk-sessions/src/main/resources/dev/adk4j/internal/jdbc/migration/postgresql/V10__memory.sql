-- adk4j schema, version 10 (PostgreSQL): the memory of DatabaseMemoryService, beside the sessions.
--
-- (Versions 5 to 9 are left to the session schema; Flyway applies versions in order, gaps allowed.)
--
-- One row per remembered event: the event's text (what is searched) and its content as JSONB
-- (what a search returns), owned by one user of one app. (app_name, user_id, session_id,
-- event_id) is unique, so adding a session again adds only its new events. words is the text's
-- tsvector under the 'simple' configuration (lower case, no stemming, no stop words: whole words,
-- as the in-memory service matches them), stored and indexed with GIN; the natural key's index
-- serves the app and user condition.

CREATE TABLE adk_memories (
  pk         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  app_name   TEXT   NOT NULL,
  user_id    TEXT   NOT NULL,
  session_id TEXT   NOT NULL,
  event_id   TEXT   NOT NULL,
  author     TEXT,
  event_time BIGINT NOT NULL,
  content    JSONB  NOT NULL,
  text       TEXT   NOT NULL,
  words      TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED,
  CONSTRAINT adk_memories_natural_key UNIQUE (app_name, user_id, session_id, event_id)
);

CREATE INDEX adk_memories_words ON adk_memories USING GIN (words);
