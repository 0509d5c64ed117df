package dev.adk4j.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.history.Checker.Kind;
import dev.adk4j.history.Checker.Report;
import dev.adk4j.history.Stored.Change;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The checker on hand-built histories: a valid one gives no anomaly, and each violated guarantee
 * gives its anomaly, so that a run reporting none means something.
 */
class CheckerTest {

  static final String S0 = "u0/s0";

  /** A history and a store, built step by step; times advance by one per record. */
  static final class Case {
    final List<Entry> history = new ArrayList<>();
    final Map<String, List<StoredEvent>> events = new LinkedHashMap<>();
    final Map<String, Map<String, Object>> finals = new LinkedHashMap<>();
    final Map<KeyRef, List<Change>> histories = new HashMap<>();
    long clock = 1;

    Case() {
      events.put(S0, new ArrayList<>());
      finals.put(S0, new LinkedHashMap<>());
    }

    Case invoke(String op, String session, Step... steps) {
      String[] us = session.split("/");
      history.add(Entry.invokeTurn(process(op), op, clock++, us[0], us[1], List.of(steps)));
      return this;
    }

    Case invokeRewind(String op, String session, String target) {
      String[] us = session.split("/");
      history.add(Entry.invokeRewind(process(op), op, clock++, us[0], us[1], target));
      return this;
    }

    @SafeVarargs
    final Case ok(String op, String invocation, Map<String, Object>... results) {
      history.add(Entry.ok(process(op), op, clock++, invocation, Arrays.asList(results)));
      return this;
    }

    Case fail(String op) {
      history.add(Entry.failed(Entry.FAIL, process(op), op, clock++, "StateConflictException"));
      return this;
    }

    Case info(String op) {
      history.add(Entry.failed(Entry.INFO, process(op), op, clock++, "SessionException"));
      return this;
    }

    /** A whole stored turn: user message, call, response with {@code delta}, done. */
    Case turn(String session, String invocation, String op, Map<String, @Nullable Object> delta) {
      List<StoredEvent> list = events.computeIfAbsent(session, k -> new ArrayList<>());
      list.add(user(invocation, op));
      list.add(call(invocation, op));
      list.add(response(invocation, op, delta));
      list.add(done(invocation, op));
      return this;
    }

    Case event(String session, StoredEvent e) {
      events.computeIfAbsent(session, k -> new ArrayList<>()).add(e);
      return this;
    }

    Case change(String user, String key, @Nullable Object value, String invocation) {
      return change(user, key, value, invocation, S0);
    }

    Case change(
        String user, String key, @Nullable Object value, String invocation, String session) {
      histories
          .computeIfAbsent(KeyRef.of(user, "x", key), k -> new ArrayList<>())
          .add(new Change(value, invocation, session));
      return this;
    }

    Case state(String session, String key, Object value) {
      finals.computeIfAbsent(session, k -> new LinkedHashMap<>()).put(key, value);
      return this;
    }

    Report check() {
      return Checker.check(history, new Stored(events, finals, histories));
    }

    private static String process(String op) {
      return op.substring(0, op.indexOf('-'));
    }
  }

  static StoredEvent user(String inv, String op) {
    return new StoredEvent(
        inv, "user", "op " + op + " []", Map.of(), List.of(), List.of(), false, null, null);
  }

  static StoredEvent call(String inv, String op) {
    return new StoredEvent(
        inv, agent(op), "", Map.of(), List.of("c-" + inv), List.of(), false, null, null);
  }

  static StoredEvent response(String inv, String op, Map<String, @Nullable Object> delta) {
    return new StoredEvent(
        inv, agent(op), "", delta, List.of(), List.of("c-" + inv), false, null, null);
  }

  static StoredEvent done(String inv, String op) {
    return new StoredEvent(
        inv, agent(op), "done", Map.of(), List.of(), List.of(), false, null, null);
  }

  static StoredEvent errorEvent(String inv, String author) {
    return new StoredEvent(
        inv, author, "", Map.of(), List.of(), List.of(), false, "INTERRUPTED", null);
  }

  static StoredEvent errorResponse(String inv, String author) {
    return new StoredEvent(
        inv, author, "", Map.of(), List.of(), List.of("c-" + inv), true, null, null);
  }

  static StoredEvent rewind(String inv, String target, Map<String, @Nullable Object> delta) {
    return new StoredEvent(inv, "user", "", delta, List.of(), List.of(), false, null, target);
  }

  static String agent(String op) {
    return op.substring(0, op.indexOf('-'));
  }

  static Map<String, Object> read(@Nullable Object value) {
    return value == null ? Map.of("absent", true) : Map.of("read", value);
  }

  static Map<String, Object> none() {
    return Map.of();
  }

  static Map<String, Object> incremented(long value) {
    return Map.of("value", value);
  }

  static Map<String, @Nullable Object> delta(Object... kv) {
    Map<String, @Nullable Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  /**
   * p1 writes user:r0 and increments user:c0; p2 read-modify-writes user:r0; p1 reads both; p2
   * writes session key k0 and p1 reads it.
   */
  static Case valid() {
    Case c = new Case();
    c.invoke("p1-1", S0, new Step(Step.WRITE, "user:r0", "A"), new Step(Step.INCR, "user:c0", null))
        .ok("p1-1", "iA", none(), incremented(1))
        .turn(S0, "iA", "p1-1", delta("user:r0", "A", "user:c0", 1))
        .change("u0", "user:r0", "A", "iA");
    c.invoke("p2-1", S0, new Step(Step.RMW, "user:r0", "B"))
        .ok("p2-1", "iB", read("A"))
        .turn(S0, "iB", "p2-1", delta("user:r0", "B"))
        .change("u0", "user:r0", "B", "iB");
    c.invoke("p1-2", S0, new Step(Step.READ, "user:r0", null), new Step(Step.READ, "user:c0", null))
        .ok("p1-2", "iC", read("B"), read(1))
        .turn(S0, "iC", "p1-2", delta());
    c.invoke("p2-2", S0, new Step(Step.WRITE, "k0", "E"))
        .ok("p2-2", "iE", none())
        .turn(S0, "iE", "p2-2", delta("k0", "E"));
    c.invoke("p1-3", S0, new Step(Step.READ, "k0", null))
        .ok("p1-3", "iF", read("E"))
        .turn(S0, "iF", "p1-3", delta());
    c.state(S0, "user:r0", "B").state(S0, "user:c0", 1).state(S0, "k0", "E");
    return c;
  }

  @Test
  void validHistory_hasNoAnomaly() {
    Report r = valid().check();
    assertThat(r.anomalies()).isEmpty();
    assertThat(r.counts()).containsEntry("ops.turn.ok", 5).containsEntry("stored.invocations", 5);
  }

  @Test
  void indeterminateOperations_mayOrMayNotHaveTakenEffect() {
    Case c = valid();
    // One increment of unknown outcome that took effect, one that did not; a failed turn that
    // stored nothing but its user message and error event.
    c.invoke("p3-1", S0, new Step(Step.INCR, "user:c0", null))
        .info("p3-1")
        .turn(S0, "iG", "p3-1", delta("user:c0", 2));
    c.invoke("p3-2", S0, new Step(Step.INCR, "user:c0", null)).info("p3-2");
    c.invoke("p3-3", S0, new Step(Step.WRITE, "k0", "X")).fail("p3-3");
    c.event(S0, user("iH", "p3-3")).event(S0, errorEvent("iH", "p3"));
    c.state(S0, "user:c0", 2);
    assertThat(c.check().anomalies()).isEmpty();
  }

  @Test
  void acknowledgedTurnNotStored_isALostWrite() {
    Case c = valid();
    c.invoke("p3-1", S0, new Step(Step.WRITE, "k1", "L")).ok("p3-1", "iL", none());
    assertThat(c.check().of(Kind.LOST_WRITE)).hasSize(2); // the turn, and k1's change
  }

  @Test
  void acknowledgedWriteMissingFromItsEvent_isALostWrite() {
    Case c = valid();
    c.invoke("p3-1", S0, new Step(Step.WRITE, "k1", "L"), new Step(Step.WRITE, "k0", "M"))
        .ok("p3-1", "iL", none(), none())
        .turn(S0, "iL", "p3-1", delta("k0", "M"));
    c.state(S0, "k0", "M");
    assertThat(c.check().of(Kind.LOST_WRITE)).isNotEmpty();
  }

  @Test
  void writeOfAFailedTurnStored_isAnAbortedWriteVisible() {
    Case c = valid();
    c.invoke("p3-1", S0, new Step(Step.WRITE, "k0", "X"))
        .fail("p3-1")
        .turn(S0, "iX", "p3-1", delta("k0", "X"));
    c.state(S0, "k0", "X");
    assertThat(c.check().of(Kind.ABORTED_WRITE_VISIBLE)).hasSize(1);
  }

  @Test
  void halfOfAnIndeterminateTurnStored_isAPartialWrite() {
    Case c = valid();
    c.invoke("p3-1", S0, new Step(Step.WRITE, "k0", "X"), new Step(Step.WRITE, "k1", "Y"))
        .info("p3-1")
        .turn(S0, "iX", "p3-1", delta("k0", "X"));
    c.state(S0, "k0", "X");
    assertThat(c.check().of(Kind.PARTIAL_WRITE)).hasSize(1);
  }

  @Test
  void counterAboveItsIncrements_orWithARepeatedResult_isACounterMismatch() {
    Case c = valid();
    c.state(S0, "user:c0", 2);
    assertThat(c.check().of(Kind.COUNTER_MISMATCH)).hasSize(2); // value, and results [1] vs 1..2

    Case lostIncrement = valid();
    // Two acknowledged increments both stored the result 1 (one was lost): value 1.
    lostIncrement
        .invoke("p3-1", S0, new Step(Step.INCR, "user:c0", null))
        .ok("p3-1", "iI", incremented(1))
        .turn(S0, "iI", "p3-1", delta("user:c0", 1));
    assertThat(lostIncrement.check().of(Kind.COUNTER_MISMATCH)).hasSize(2);
  }

  @Test
  void counterReadBelowTheIncrementsAcknowledgedBefore_isAStaleRead() {
    Case c = valid();
    c.invoke("p3-1", S0, new Step(Step.READ, "user:c0", null))
        .ok("p3-1", "iR", read(null))
        .turn(S0, "iR", "p3-1", delta());
    assertThat(c.check().of(Kind.STALE_READ)).hasSize(1);
  }

  @Test
  void twoReadModifyWritesOfOneValue_isALostUpdate() {
    Case c = valid();
    // p3 also read A (before B replaced it) and its write was stored after B.
    c.invoke("p3-1", S0, new Step(Step.RMW, "user:r0", "D"))
        .ok("p3-1", "iD", read("A"))
        .turn(S0, "iD", "p3-1", delta("user:r0", "D"))
        .change("u0", "user:r0", "D", "iD");
    c.state(S0, "user:r0", "D");
    assertThat(c.check().of(Kind.RMW_NOT_LATEST)).hasSize(1);
  }

  @Test
  void readOfAnOverwrittenValue_isAStaleRead() {
    Case c = valid();
    c.invoke("p3-1", S0, new Step(Step.READ, "user:r0", null))
        .ok("p3-1", "iS", read("A"))
        .turn(S0, "iS", "p3-1", delta());
    assertThat(c.check().of(Kind.STALE_READ)).hasSize(1);
  }

  @Test
  void readOfAValueNobodyWrote_isAPhantomRead() {
    Case c = valid();
    c.invoke("p3-1", S0, new Step(Step.READ, "user:r0", null))
        .ok("p3-1", "iS", read("Z"))
        .turn(S0, "iS", "p3-1", delta());
    assertThat(c.check().of(Kind.PHANTOM_READ)).hasSize(1);
  }

  @Test
  void readOfASessionKeyOtherThanTheStateBeforeTheTurn_isAReadMismatch() {
    Case c = valid();
    c.invoke("p3-1", S0, new Step(Step.READ, "k0", null))
        .ok("p3-1", "iS", read(null))
        .turn(S0, "iS", "p3-1", delta());
    assertThat(c.check().of(Kind.READ_MISMATCH)).hasSize(1);
  }

  @Test
  void callNeverAnswered_isAMalformedTurn() {
    Case c = valid();
    c.invoke("p3-1", S0, new Step(Step.READ, "k0", null)).info("p3-1");
    c.event(S0, user("iM", "p3-1")).event(S0, call("iM", "p3-1")).event(S0, done("iM", "p3-1"));
    assertThat(c.check().of(Kind.MALFORMED_TURN)).hasSize(1);
  }

  @Test
  void callLeftUnansweredBeforeARewind_isReportedAsSuch() {
    Case c = valid();
    c.invoke("p3-1", S0, new Step(Step.READ, "k0", null)).info("p3-1");
    c.event(S0, user("iM", "p3-1")).event(S0, call("iM", "p3-1"));
    c.invokeRewind("p4-1", S0, "iE").ok("p4-1", "iRw");
    c.event(S0, rewind("iRw", "iE", delta("k0", null)));
    c.finals.get(S0).remove("k0");
    Report r = c.check();
    assertThat(r.of(Kind.UNANSWERED_BEFORE_REWIND)).hasSize(1);
    assertThat(r.of(Kind.MALFORMED_TURN)).isEmpty();
  }

  @Test
  void operationStoredTwice_isAMalformedTurn() {
    Case c = valid();
    c.turn(S0, "iF2", "p1-3", delta());
    assertThat(c.check().of(Kind.MALFORMED_TURN)).hasSize(1);
  }

  @Test
  void turnWithoutAFinalEvent_isUnclosed_andOneWithOnlyAnErrorEvent_headless() {
    Case c = valid();
    c.invoke("p3-1", S0, new Step(Step.READ, "k0", null)).info("p3-1");
    c.event(S0, user("iU", "p3-1")).event(S0, call("iU", "p3-1"));
    c.event(S0, response("iU", "p3-1", delta()));
    c.invoke("p3-2", S0, new Step(Step.READ, "k0", null)).info("p3-2");
    c.event(S0, errorEvent("iV", "p3"));
    Report r = c.check();
    assertThat(r.of(Kind.UNCLOSED_TURN)).hasSize(1);
    assertThat(r.of(Kind.HEADLESS_TURN)).hasSize(1);
  }

  @Test
  void closingEventsSplitByAnotherTurn_areInterleavedTurns() {
    Case c = valid();
    c.invoke("p3-1", S0, new Step(Step.READ, "k0", null)).info("p3-1");
    c.event(S0, user("iW", "p3-1")).event(S0, call("iW", "p3-1"));
    c.invoke("p4-1", S0, new Step(Step.READ, "k0", null))
        .ok("p4-1", "iY", read("E"))
        .turn(S0, "iY", "p4-1", delta());
    c.event(S0, errorResponse("iW", "p3")).event(S0, errorEvent("iW", "p4"));
    assertThat(c.check().of(Kind.INTERLEAVED_TURNS)).hasSize(1); // where iW's events resume
  }

  @Test
  void processWritingAfterAnotherTurnTookOver_isAWriteAfterLeaseLost() {
    Case c = valid();
    // p3 stalled after its call; p4's turn closed p3's and ran; then p3 stored its response.
    c.invoke("p3-1", S0, new Step(Step.WRITE, "k1", "W")).info("p3-1");
    c.event(S0, user("iW", "p3-1")).event(S0, call("iW", "p3-1"));
    c.event(S0, errorResponse("iW", "p4")).event(S0, errorEvent("iW", "p4"));
    c.invoke("p4-1", S0, new Step(Step.READ, "k0", null))
        .ok("p4-1", "iY", read("E"))
        .turn(S0, "iY", "p4-1", delta());
    c.event(S0, response("iW", "p3-1", delta("k1", "W")));
    c.state(S0, "k1", "W");
    assertThat(c.check().of(Kind.WRITE_AFTER_LEASE_LOST)).hasSize(1);

    Case sameBlock = valid();
    // The writer goes on right after the takeover closed its turn, before the next user event.
    sameBlock.invoke("p3-1", S0, new Step(Step.WRITE, "k1", "W")).info("p3-1");
    sameBlock.event(S0, user("iW", "p3-1")).event(S0, call("iW", "p3-1"));
    sameBlock.event(S0, errorResponse("iW", "p4")).event(S0, errorEvent("iW", "p4"));
    sameBlock.event(S0, response("iW", "p3-1", delta("k1", "W")));
    sameBlock.state(S0, "k1", "W");
    assertThat(sameBlock.check().of(Kind.WRITE_AFTER_LEASE_LOST)).hasSize(1);
  }

  @Test
  void finalStateOtherThanTheLastChange_isAFinalStateMismatch() {
    Case c = valid();
    c.state(S0, "user:r0", "A").state(S0, "k0", "Q");
    // user:r0 against its history; k0 against its changes and against the session's replay.
    assertThat(c.check().of(Kind.FINAL_STATE_MISMATCH)).hasSize(3);
  }

  @Test
  void stateHistoryMissingAChange_isAHistoryMismatch() {
    Case c = valid();
    c.histories.get(KeyRef.of("u0", "x", "user:r0")).remove(0);
    assertThat(c.check().of(Kind.HISTORY_MISMATCH)).hasSize(1);
  }

  @Test
  void rewindThatDoesNotRestoreTheStateBeforeItsTarget_isARewindMismatch() {
    Case good = valid();
    good.invoke("p3-1", S0, new Step(Step.WRITE, "k0", "R"))
        .ok("p3-1", "iR", none())
        .turn(S0, "iR", "p3-1", delta("k0", "R"));
    good.invokeRewind("p3-2", S0, "iR").ok("p3-2", "iRw");
    good.event(S0, rewind("iRw", "iR", delta("k0", "E")));
    assertThat(good.check().anomalies()).isEmpty();

    Case bad = valid();
    bad.invoke("p3-1", S0, new Step(Step.WRITE, "k0", "R"))
        .ok("p3-1", "iR", none())
        .turn(S0, "iR", "p3-1", delta("k0", "R"));
    bad.invokeRewind("p3-2", S0, "iR").ok("p3-2", "iRw");
    bad.event(S0, rewind("iRw", "iR", delta())).state(S0, "k0", "R");
    assertThat(bad.check().of(Kind.REWIND_MISMATCH)).hasSize(1);
  }

  @Test
  void rewindRestoringAUserKeyAnotherSessionChangedSince_isARewindMismatch() {
    Case c = valid();
    c.invoke("p3-1", S0, new Step(Step.WRITE, "user:r0", "R"))
        .ok("p3-1", "iR", none())
        .turn(S0, "iR", "p3-1", delta("user:r0", "R"))
        .change("u0", "user:r0", "R", "iR");
    // Another session of u0 changed it after the undone write; the rewind overwrote that.
    c.events.put("u0/s1", new ArrayList<>());
    c.invoke("p4-1", "u0/s1", new Step(Step.WRITE, "user:r0", "T"))
        .ok("p4-1", "iT", none())
        .turn("u0/s1", "iT", "p4-1", delta("user:r0", "T"))
        .change("u0", "user:r0", "T", "iT", "u0/s1");
    c.invokeRewind("p3-2", S0, "iR").ok("p3-2", "iRw");
    c.event(S0, rewind("iRw", "iR", delta("user:r0", "B"))).change("u0", "user:r0", "B", "iRw");
    assertThat(c.check().of(Kind.REWIND_MISMATCH)).hasSize(1);
  }

  @Test
  void rewindRestoringAUserKeyAnotherSessionOnlyWroteWithTheSameValue_isValid() {
    Case c = valid();
    c.invoke("p3-1", S0, new Step(Step.WRITE, "user:r0", "R"))
        .ok("p3-1", "iR", none())
        .turn(S0, "iR", "p3-1", delta("user:r0", "R"))
        .change("u0", "user:r0", "R", "iR");
    // Another session of u0 wrote the value the key already held: no change of value.
    c.events.put("u0/s1", new ArrayList<>());
    c.invoke("p4-1", "u0/s1", new Step(Step.WRITE, "user:r0", "R"))
        .ok("p4-1", "iT", none())
        .turn("u0/s1", "iT", "p4-1", delta("user:r0", "R"))
        .change("u0", "user:r0", "R", "iT", "u0/s1");
    c.invokeRewind("p3-2", S0, "iR").ok("p3-2", "iRw");
    c.event(S0, rewind("iRw", "iR", delta("user:r0", "B"))).change("u0", "user:r0", "B", "iRw");
    assertThat(c.check().of(Kind.REWIND_MISMATCH)).isEmpty();
  }

  @Test
  void acknowledgedRewindNotStored_isALostWrite() {
    Case c = valid();
    c.invokeRewind("p3-1", S0, "iE").ok("p3-1", "iRw");
    assertThat(c.check().of(Kind.LOST_WRITE)).hasSize(1);
  }
}
