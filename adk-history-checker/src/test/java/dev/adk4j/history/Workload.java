package dev.adk4j.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The shared sessions and keys every worker draws its turns from, and how a turn is drawn. Few keys
 * and sessions, so that processes contend: two users; user {@code u0} has sessions {@code s0},
 * {@code s1} and {@code r0}, user {@code u1} has {@code s2} and {@code r1}. Counters ({@code
 * app:c0}, {@code user:c0}) are only incremented and read; registers ({@code app:r0}, {@code
 * app:r1}, {@code user:r0}, {@code user:r1}, and the session keys {@code k0}, {@code k1}) are
 * written, read-modify-written, deleted and read. Rewinds happen only in the {@code r} sessions,
 * whose turns never increment, so that a rewind never undoes an increment (it would restore a
 * counter, which is what a rewind promises but not what a counter check can allow).
 */
final class Workload {

  static final String APP = "history";

  /** A session and its user. */
  record SessionRef(String user, String session) {
    boolean rewinds() {
      return session.startsWith("r");
    }

    String key() {
      return user + "/" + session;
    }
  }

  static final List<SessionRef> SESSIONS =
      List.of(
          new SessionRef("u0", "s0"),
          new SessionRef("u0", "s1"),
          new SessionRef("u0", "r0"),
          new SessionRef("u1", "s2"),
          new SessionRef("u1", "r1"));

  static final List<String> COUNTERS = List.of("app:c0", "user:c0");
  static final List<String> REGISTERS =
      List.of("app:r0", "app:r1", "user:r0", "user:r1", "k0", "k1");

  private Workload() {}

  /** The steps of one turn on {@code session}: one to three, on distinct keys. */
  static List<Step> turn(Random random, SessionRef session, String opId) {
    List<String> keys = new ArrayList<>(REGISTERS);
    if (!session.rewinds()) {
      keys.addAll(COUNTERS);
    }
    int n = 1 + random.nextInt(3);
    List<Step> steps = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String k = keys.remove(random.nextInt(keys.size()));
      int roll = random.nextInt(100);
      String value = opId + "." + i;
      if (COUNTERS.contains(k)) {
        steps.add(new Step(roll < 75 ? Step.INCR : Step.READ, k, null));
      } else if (roll < 25) {
        steps.add(new Step(Step.WRITE, k, value));
      } else if (roll < 60) {
        steps.add(new Step(Step.RMW, k, value));
      } else if (roll < 70) {
        steps.add(new Step(Step.DEL, k, null));
      } else {
        steps.add(new Step(Step.READ, k, null));
      }
    }
    return steps;
  }

  /** A turn that reads every key a session sees (the final reads). */
  static List<Step> readAll(SessionRef session) {
    List<Step> steps = new ArrayList<>();
    for (String k : REGISTERS) {
      steps.add(new Step(Step.READ, k, null));
    }
    if (!session.rewinds()) {
      for (String k : COUNTERS) {
        steps.add(new Step(Step.READ, k, null));
      }
    }
    return steps;
  }
}
