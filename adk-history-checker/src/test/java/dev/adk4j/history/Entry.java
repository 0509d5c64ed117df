package dev.adk4j.history;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One record of a history, as a worker writes it (one JSON object per line): the invocation of an
 * operation, then its completion as {@code ok}, {@code fail} (it certainly did not take effect) or
 * {@code info} (its outcome is unknown). An operation invoked and never completed (its process was
 * killed) counts as {@code info}.
 *
 * @param type {@code invoke}, {@code ok}, {@code fail} or {@code info}
 * @param process the process that ran it (a worker incarnation, e.g. {@code w2_1})
 * @param op the operation's id, unique in the run
 * @param nanos {@link System#nanoTime()}: Linux's monotonic clock, the same for every process of
 *     the host, so times of different processes compare
 * @param wall {@link System#currentTimeMillis()} of the process (skewed under faketime)
 * @param kind {@code turn} or {@code rewind} (on invoke)
 * @param user the session's user (on invoke)
 * @param session the session (on invoke)
 * @param steps a turn's steps (on invoke)
 * @param target a rewind's invocation to rewind before (on invoke)
 * @param invocationId the stored invocation id (on ok: the turn's or the rewind event's)
 * @param results per step (on ok): {@code read} the value read or {@code absent: true}; {@code
 *     value} the stored result of an increment
 * @param error the failure (on fail and info; on ok, a failure after the writes were stored)
 */
record Entry(
    String type,
    String process,
    String op,
    long nanos,
    long wall,
    @Nullable String kind,
    @Nullable String user,
    @Nullable String session,
    List<Step> steps,
    @Nullable String target,
    @Nullable String invocationId,
    List<Map<String, Object>> results,
    @Nullable String error) {

  static final String INVOKE = "invoke";
  static final String OK = "ok";
  static final String FAIL = "fail";
  static final String INFO = "info";

  static final String TURN = "turn";
  static final String REWIND = "rewind";

  private static final ObjectMapper JSON = new ObjectMapper();

  static Entry invokeTurn(
      String process, String op, long nanos, String user, String session, List<Step> steps) {
    return new Entry(
        INVOKE,
        process,
        op,
        nanos,
        System.currentTimeMillis(),
        TURN,
        user,
        session,
        steps,
        null,
        null,
        List.of(),
        null);
  }

  static Entry invokeRewind(
      String process, String op, long nanos, String user, String session, String target) {
    return new Entry(
        INVOKE,
        process,
        op,
        nanos,
        System.currentTimeMillis(),
        REWIND,
        user,
        session,
        List.of(),
        target,
        null,
        List.of(),
        null);
  }

  static Entry ok(
      String process,
      String op,
      long nanos,
      String invocationId,
      List<Map<String, Object>> results) {
    return ok(process, op, nanos, invocationId, results, null);
  }

  /**
   * An acknowledged operation; {@code error}: the failure its turn ended with after its writes were
   * stored (its closing appends failed), for diagnosis.
   */
  static Entry ok(
      String process,
      String op,
      long nanos,
      String invocationId,
      List<Map<String, Object>> results,
      @Nullable String error) {
    return new Entry(
        OK,
        process,
        op,
        nanos,
        System.currentTimeMillis(),
        null,
        null,
        null,
        List.of(),
        null,
        invocationId,
        results,
        error);
  }

  static Entry failed(String type, String process, String op, long nanos, String error) {
    return new Entry(
        type,
        process,
        op,
        nanos,
        System.currentTimeMillis(),
        null,
        null,
        null,
        List.of(),
        null,
        null,
        List.of(),
        error);
  }

  /** This record with its time moved by {@code delta} nanoseconds. */
  Entry shifted(long delta) {
    return new Entry(
        type,
        process,
        op,
        nanos + delta,
        wall,
        kind,
        user,
        session,
        steps,
        target,
        invocationId,
        results,
        error);
  }

  String toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", type);
    m.put("process", process);
    m.put("op", op);
    m.put("nanos", nanos);
    m.put("wall", wall);
    putIf(m, "kind", kind);
    putIf(m, "user", user);
    putIf(m, "session", session);
    if (!steps.isEmpty()) {
      m.put("steps", steps.stream().map(Step::toMap).toList());
    }
    putIf(m, "target", target);
    putIf(m, "invocationId", invocationId);
    if (!results.isEmpty()) {
      m.put("results", results);
    }
    putIf(m, "error", error);
    try {
      return JSON.writeValueAsString(m);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write " + m, e);
    }
  }

  private static void putIf(Map<String, Object> m, String k, @Nullable Object v) {
    if (v != null) {
      m.put(k, v);
    }
  }

  @SuppressWarnings("unchecked")
  static Entry fromJson(String line) {
    Map<String, Object> m;
    try {
      m = JSON.readValue(line, Map.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Not a history record: " + line, e);
    }
    List<Step> steps = new ArrayList<>();
    for (Object s : (List<Object>) m.getOrDefault("steps", List.of())) {
      steps.add(Step.fromMap((Map<?, ?>) s));
    }
    return new Entry(
        (String) m.get("type"),
        (String) m.get("process"),
        (String) m.get("op"),
        ((Number) m.get("nanos")).longValue(),
        ((Number) m.get("wall")).longValue(),
        (String) m.get("kind"),
        (String) m.get("user"),
        (String) m.get("session"),
        steps,
        (String) m.get("target"),
        (String) m.get("invocationId"),
        (List<Map<String, Object>>) m.getOrDefault("results", List.of()),
        (String) m.get("error"));
  }
}
