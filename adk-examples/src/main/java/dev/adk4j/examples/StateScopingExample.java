package dev.adk4j.examples;

import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import java.io.PrintStream;
import java.util.Map;
import java.util.TreeMap;

/**
 * State scoping: two sessions of user {@code alice} in {@code my_app} share the {@code app:} and
 * {@code user:} values given when the first was created, and keep their own session keys.
 *
 * <p>Run it alone: {@code ./mvnw -q -Pexamples -DskipTests package -Dexample=state-scoping}.
 */
public final class StateScopingExample {
  private StateScopingExample() {}

  public static void main(String[] args) {
    run(new InMemorySessionService(), System.out);
  }

  /** Runs the scenario on {@code sessions}, printing what it sees; returns the second session. */
  public static Session run(BaseSessionService sessions, PrintStream out) {
    String app = "scoping_app";
    String user = "alice";
    sessions.deleteSession(app, user, "s1").blockingAwait();
    sessions.deleteSession(app, user, "s2").blockingAwait();

    Session s1 =
        sessions
            .createSession(
                app,
                user,
                Map.of("app:theme", "dark", "user:language", "en", "context", "session1"),
                "s1")
            .blockingGet();
    out.println("Created s1 with state " + sorted(s1.state()));

    Session s2 =
        sessions.createSession(app, user, Map.of("context", "session2"), "s2").blockingGet();
    out.println("Created s2 with state " + sorted(s2.state()));

    out.println("s2 app:theme     = " + s2.state().get("app:theme") + "   (app scope, shared)");
    out.println(
        "s2 user:language = " + s2.state().get("user:language") + "   (user scope, shared)");
    out.println("s2 context       = " + s2.state().get("context") + "   (session scope, its own)");
    Session reread = sessions.getSession(app, user, "s1").blockingGet();
    out.println("s1 context       = " + reread.state().get("context") + "   (unchanged)");
    boolean ok =
        "dark".equals(s2.state().get("app:theme"))
            && "en".equals(s2.state().get("user:language"))
            && "session2".equals(s2.state().get("context"))
            && "session1".equals(reread.state().get("context"));
    out.println(ok ? "State scoping works correctly!" : "State scoping is BROKEN");
    return s2;
  }

  static Map<String, Object> sorted(Map<String, Object> state) {
    return new TreeMap<>(state);
  }
}
