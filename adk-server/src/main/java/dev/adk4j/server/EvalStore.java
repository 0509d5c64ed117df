package dev.adk4j.server;

import dev.adk4j.internal.jdbc.JdbcEvalStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Where the evaluation endpoints keep eval sets and eval results, as JSON text (ADK's eval set and
 * eval result files): the session database when the server opened one ({@link
 * AdkServer.Builder#store}, tables of migration V13), in memory otherwise. Thread-safe.
 */
interface EvalStore extends AutoCloseable {

  /** The app's eval set ids, sorted. */
  List<String> evalSetIds(String app);

  Optional<String> evalSet(String app, String evalSetId);

  /**
   * @return false when it exists and {@code replace} is false (nothing written)
   */
  boolean putEvalSet(String app, String evalSetId, String json, boolean replace);

  boolean deleteEvalSet(String app, String evalSetId);

  /** The app's eval result ids, oldest first. */
  List<String> evalResultIds(String app);

  Optional<String> evalResult(String app, String evalResultId);

  void putEvalResult(
      String app, String evalResultId, String evalSetId, String json, long createdAtMillis);

  /** Where the store keeps its data, for the log. */
  String describe();

  @Override
  void close();

  static EvalStore inMemory() {
    return new Memory();
  }

  static EvalStore jdbc(JdbcEvalStore store) {
    return new Jdbc(store);
  }

  /** In memory, lost when the server stops. */
  final class Memory implements EvalStore {
    private final Map<String, TreeMap<String, String>> sets = new LinkedHashMap<>();
    private final Map<String, LinkedHashMap<String, String>> results = new LinkedHashMap<>();

    @Override
    public synchronized List<String> evalSetIds(String app) {
      return new ArrayList<>(sets.getOrDefault(app, new TreeMap<>()).keySet());
    }

    @Override
    public synchronized Optional<String> evalSet(String app, String evalSetId) {
      return Optional.ofNullable(sets.getOrDefault(app, new TreeMap<>()).get(evalSetId));
    }

    @Override
    public synchronized boolean putEvalSet(
        String app, String evalSetId, String json, boolean replace) {
      TreeMap<String, String> m = sets.computeIfAbsent(app, k -> new TreeMap<>());
      if (!replace && m.containsKey(evalSetId)) {
        return false;
      }
      m.put(evalSetId, json);
      return true;
    }

    @Override
    public synchronized boolean deleteEvalSet(String app, String evalSetId) {
      TreeMap<String, String> m = sets.get(app);
      return m != null && m.remove(evalSetId) != null;
    }

    @Override
    public synchronized List<String> evalResultIds(String app) {
      return new ArrayList<>(results.getOrDefault(app, new LinkedHashMap<>()).keySet());
    }

    @Override
    public synchronized Optional<String> evalResult(String app, String evalResultId) {
      return Optional.ofNullable(
          results.getOrDefault(app, new LinkedHashMap<>()).get(evalResultId));
    }

    @Override
    public synchronized void putEvalResult(
        String app, String evalResultId, String evalSetId, String json, long createdAtMillis) {
      results.computeIfAbsent(app, k -> new LinkedHashMap<>()).put(evalResultId, json);
    }

    @Override
    public String describe() {
      return "memory";
    }

    @Override
    public void close() {}
  }

  /** In the session database's tables {@code adk_eval_sets} and {@code adk_eval_results}. */
  final class Jdbc implements EvalStore {
    private final JdbcEvalStore db;

    Jdbc(JdbcEvalStore db) {
      this.db = db;
    }

    @Override
    public List<String> evalSetIds(String app) {
      return db.evalSetIds(app);
    }

    @Override
    public Optional<String> evalSet(String app, String evalSetId) {
      return db.evalSet(app, evalSetId);
    }

    @Override
    public boolean putEvalSet(String app, String evalSetId, String json, boolean replace) {
      return db.putEvalSet(app, evalSetId, json, replace);
    }

    @Override
    public boolean deleteEvalSet(String app, String evalSetId) {
      return db.deleteEvalSet(app, evalSetId);
    }

    @Override
    public List<String> evalResultIds(String app) {
      return db.evalResultIds(app);
    }

    @Override
    public Optional<String> evalResult(String app, String evalResultId) {
      return db.evalResult(app, evalResultId);
    }

    @Override
    public void putEvalResult(
        String app, String evalResultId, String evalSetId, String json, long createdAtMillis) {
      db.putEvalResult(app, evalResultId, evalSetId, json, createdAtMillis);
    }

    @Override
    public String describe() {
      return "the session database (" + db.databaseProduct() + ")";
    }

    @Override
    public void close() {
      db.close();
    }
  }
}
