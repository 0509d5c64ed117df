-- adk4j schema, version 10 (SQLite): the memory of DatabaseMemoryService, beside the sessions.
--
-- (Versions 5 to 9 are left to the session schema; Flyway applies versions in order, gaps allowed.)
--
-- One row per remembered event: the event's text (what is searched) and its content as JSON (what
-- a search returns), owned by one user of one app. (app_name, user_id, session_id, event_id) is
-- unique, so adding a session again adds only its new events. adk_memories_fts is an FTS5 index
-- of the text kept by triggers (an external-content table: the text is stored once); the
-- unicode61 tokenizer splits on whatever is not a letter or digit and folds case, and keeps
-- diacritics, as the in-memory service does. A search matches the index first, then keeps the
-- rows of the app and user.

CREATE TABLE adk_memories (
  pk         INTEGER PRIMARY KEY,
  app_name   TEXT    NOT NULL,
  user_id    TEXT    NOT NULL,
  session_id TEXT    NOT NULL,
  event_id   TEXT    NOT NULL,
  author     TEXT,
  event_time INTEGER NOT NULL,
  content    TEXT    NOT NULL,
  text       TEXT    NOT NULL,
  UNIQUE (app_name, user_id, session_id, event_id)
) STRICT;

CREATE VIRTUAL TABLE adk_memories_fts USING fts5(
  text, content = 'adk_memories', content_rowid = 'pk', tokenize = 'unicode61 remove_diacritics 0');

CREATE TRIGGER adk_memories_fts_insert AFTER INSERT ON adk_memories BEGIN
  INSERT INTO adk_memories_fts (rowid, text) VALUES (new.pk, new.text);
END;

CREATE TRIGGER adk_memories_fts_delete AFTER DELETE ON adk_memories BEGIN
  INSERT INTO adk_memories_fts (adk_memories_fts, rowid, text) VALUES ('delete', old.pk, old.text);
END;

CREATE TRIGGER adk_memories_fts_update AFTER UPDATE OF text ON adk_memories BEGIN
  INSERT INTO adk_memories_fts (adk_memories_fts, rowid, text) VALUES ('delete', old.pk, old.text);
  INSERT INTO adk_memories_fts (rowid, text) VALUES (new.pk, new.text);
END;
