-- adk4j schema, version 13 (SQLite): the eval sets and eval results of adk-server's evaluation
-- endpoints (the dev UI's eval tab), kept beside the sessions the eval runs create.
--
-- One row per eval set of an app: its JSON as ADK for Python writes an *.evalset.json file.
-- One row per eval run (an EvalSetResult): its JSON as ADK writes it, created_at in epoch millis.

CREATE TABLE adk_eval_sets (
  app_name    TEXT    NOT NULL,
  eval_set_id TEXT    NOT NULL,
  body        TEXT    NOT NULL,
  updated_at  INTEGER NOT NULL,
  PRIMARY KEY (app_name, eval_set_id)
) STRICT;

CREATE TABLE adk_eval_results (
  app_name       TEXT    NOT NULL,
  eval_result_id TEXT    NOT NULL,
  eval_set_id    TEXT    NOT NULL,
  body           TEXT    NOT NULL,
  created_at     INTEGER NOT NULL,
  PRIMARY KEY (app_name, eval_result_id)
) STRICT;
