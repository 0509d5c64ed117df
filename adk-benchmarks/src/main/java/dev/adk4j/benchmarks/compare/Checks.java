package dev.adk4j.benchmarks.compare;

import java.util.Objects;

/**
 * Checks, run at the start of every comparison trial, that an implementation did the work the
 * benchmark means it to do: the events stored, the state written by scope, the instruction
 * rendered, the turn's four events, the tool's state and the output key. They also fail fast if a
 * class google-adk needs is missing from the benchmarks' class path, or if it does not work with
 * the google-genai version on the classpath. {@code java -cp benchmarks.jar
 * dev.adk4j.benchmarks.compare.Checks} runs them all for both sides.
 */
public final class Checks {
  private Checks() {}

  public static void main(String[] args) {
    for (String impl : new String[] {Workload.ADK4J, Workload.ADK_JAVA}) {
      sessions(SessionOps.create(impl), impl);
      template(TemplateOps.create(impl), impl);
      turns(TurnOps.create(impl), impl);
      System.out.println(impl + ": sessions, templating and turns check out");
    }
  }

  /** Appends built and prebuilt events, reads them back whole and recent. */
  public static void sessions(SessionOps ops, String impl) {
    String id = "check-sessions";
    Object session = ops.createSession(id);
    for (int i = 0; i < 5; i++) {
      ops.appendNew(session, i);
    }
    for (int i = 5; i < 10; i++) {
      ops.append(session, ops.prebuild(i, "check-event-" + i));
    }
    Object whole = ops.getSession(id);
    expect(impl, "events stored", 10, ops.eventCount(whole));
    expect(impl, "session key", 9, ops.stateValue(whole, Workload.SESSION_KEY));
    expect(impl, "user key", Workload.USER_VALUE, ops.stateValue(whole, Workload.USER_KEY));
    expect(impl, "app key", Workload.APP_VALUE, ops.stateValue(whole, Workload.APP_KEY));
    expect(impl, "event text", Workload.EVENT_TEXT, ops.lastEventText(whole));
    expect(impl, "recent events", 3, ops.eventCount(ops.getRecentEvents(id, 3)));
    // The user: and app: keys reach another session of the same user through their scopes.
    Object other = ops.createSession(id + "-other");
    expect(impl, "user scope", Workload.USER_VALUE, ops.stateValue(other, Workload.USER_KEY));
    expect(impl, "app scope", Workload.APP_VALUE, ops.stateValue(other, Workload.APP_KEY));
    expect(impl, "session scope", null, ops.stateValue(other, Workload.SESSION_KEY));
    ops.deleteSession(id + "-other");
    ops.deleteSession(id);
  }

  public static void template(TemplateOps ops, String impl) {
    expect(impl, "rendering", Workload.expectedRendering(), ops.render(Workload.TEMPLATE));
  }

  /** Two turns on a fresh session: events, tool state, output key, model calls. */
  public static void turns(TurnOps ops, String impl) {
    String id = "check-turns";
    ops.createSession(id);
    for (int t = 1; t <= 2; t++) {
      int emitted = ops.turn(id);
      ops.settle(id);
      expect(impl, "events emitted by turn " + t, Workload.EVENTS_PER_TURN - 1, emitted);
      expect(
          impl, "events stored after turn " + t, t * Workload.EVENTS_PER_TURN, ops.eventCount(id));
      expect(impl, "model calls after turn " + t, 2L * t, ops.modelCalls());
    }
    expect(
        impl, "tool state", Workload.TOOL_ARG_VALUE, ops.stateValue(id, Workload.TOOL_STATE_KEY));
    expect(impl, "output key", Workload.FINAL_ANSWER, ops.stateValue(id, Workload.OUTPUT_KEY));
    ops.deleteSession(id);
    String history = "check-history";
    ops.createSession(history);
    ops.fillHistory(history, 6);
    expect(impl, "history events", 6, ops.eventCount(history));
    ops.turn(history);
    ops.settle(history);
    expect(
        impl,
        "events after a turn on history",
        6 + Workload.EVENTS_PER_TURN,
        ops.eventCount(history));
    ops.deleteSession(history);
  }

  static void expect(String impl, String what, Object expected, Object actual) {
    if (!Objects.equals(expected, actual)) {
      throw new IllegalStateException(
          impl + ": " + what + " is " + actual + ", expected " + expected);
    }
  }
}
