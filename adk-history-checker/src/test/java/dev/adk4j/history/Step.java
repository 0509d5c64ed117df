package dev.adk4j.history;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One operation inside a turn: what the worker's tool does to one state key.
 *
 * <ul>
 *   <li>{@code write}: a blind {@code put(k, v)};
 *   <li>{@code rmw}: {@code get(k)}, then {@code put(k, v)}, so the event carries the value read as
 *       an expectation the store checks;
 *   <li>{@code del}: {@code remove(k)};
 *   <li>{@code incr}: {@code increment(k, 1)};
 *   <li>{@code read}: {@code get(k)} only.
 * </ul>
 *
 * @param f the function, one of the five above
 * @param k the state key, its prefix included
 * @param v the value written ({@code write}, {@code rmw}), unique in a run; null otherwise
 */
record Step(String f, String k, @Nullable String v) {

  static final String WRITE = "write";
  static final String RMW = "rmw";
  static final String DEL = "del";
  static final String INCR = "incr";
  static final String READ = "read";

  boolean writes() {
    return !f.equals(READ);
  }

  boolean reads() {
    return f.equals(READ) || f.equals(RMW);
  }

  Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("f", f);
    m.put("k", k);
    if (v != null) {
      m.put("v", v);
    }
    return m;
  }

  static Step fromMap(Map<?, ?> m) {
    Object v = m.get("v");
    return new Step((String) m.get("f"), (String) m.get("k"), v == null ? null : v.toString());
  }

  @Override
  public String toString() {
    return f + "(" + k + (v == null ? "" : "=" + v) + ")";
  }
}
