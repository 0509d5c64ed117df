package dev.adk4j.eval;

import dev.adk4j.agents.BaseAgent;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command: runs an eval set against an agent, prints a table per case and metric, and writes
 * ADK's eval-result JSON.
 *
 * <pre>
 * java dev.adk4j.eval.EvalCli --agent com.example.Agents#weather --app weather \
 *     --set weather.evalset.json [--config test_config.json] [--runs 3] \
 *     [--out results.json] [--db jdbc:sqlite:eval.db] [--record run.json | --replay run.json]
 * </pre>
 *
 * {@code --agent} names a public static field or no-argument method that gives the {@code
 * BaseAgent}; the session store is in memory unless {@code --db} gives a JDBC URL. Exit status 0 if
 * every case passed, 1 if one failed or errored, 2 for bad arguments.
 */
public final class EvalCli {
  private EvalCli() {}

  public static void main(String[] args) {
    int code = run(args, System.out, System.err);
    if (code != 0) {
      System.exit(code);
    }
  }

  /** Runs the command; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    String agentRef = null;
    String app = null;
    String set = null;
    String config = null;
    String outFile = null;
    String db = null;
    String record = null;
    String replay = null;
    int runs = 1;
    List<String> rest = new ArrayList<>(List.of(args));
    try {
      for (int i = 0; i < rest.size(); i++) {
        String a = rest.get(i);
        String v = i + 1 < rest.size() ? rest.get(i + 1) : null;
        if (v == null) {
          throw new IllegalArgumentException("missing value after " + a);
        }
        switch (a) {
          case "--agent" -> agentRef = v;
          case "--app" -> app = v;
          case "--set" -> set = v;
          case "--config" -> config = v;
          case "--out" -> outFile = v;
          case "--db" -> db = v;
          case "--record" -> record = v;
          case "--replay" -> replay = v;
          case "--runs" -> runs = Integer.parseInt(v);
          default -> throw new IllegalArgumentException("unknown argument " + a);
        }
        i++;
      }
      if (agentRef == null || set == null) {
        throw new IllegalArgumentException("--agent and --set are required");
      }
    } catch (IllegalArgumentException e) {
      err.println("eval: " + e.getMessage());
      err.println(
          "usage: EvalCli --agent CLASS#MEMBER --set FILE [--app NAME] [--config FILE] [--runs N]"
              + " [--out FILE] [--db JDBC_URL] [--record FILE | --replay FILE]");
      return 2;
    }
    EvalSet evalSet = EvalSet.read(Path.of(set));
    BaseAgent agent = agent(agentRef);
    if (app == null) {
      app =
          evalSet.cases().stream()
              .flatMap(c -> c.sessionInput().stream())
              .map(SessionInput::appName)
              .filter(s -> !s.isEmpty())
              .findFirst()
              .orElse(agent.name());
    }
    BaseSessionService sessions =
        db == null ? new InMemorySessionService() : new DatabaseSessionService(db);
    EvalRunner runner =
        EvalRunner.builder()
            .app(app, agent)
            .sessionService(sessions)
            .config(config == null ? EvalConfig.defaults() : EvalConfig.read(Path.of(config)))
            .runs(runs)
            .recordTo(record == null ? null : Path.of(record))
            .replayFrom(replay == null ? null : Path.of(replay))
            .build();
    EvalSetResult result = runner.run(evalSet);
    out.print(result.table());
    for (EvalCaseResult c : result.cases()) {
      for (String f : c.failures()) {
        out.println(c.evalId() + ": " + f);
      }
    }
    if (outFile != null) {
      result.write(Path.of(outFile));
      out.println("results: " + outFile);
    }
    return result.passed() ? 0 : 1;
  }

  static BaseAgent agent(String ref) {
    int hash = ref.indexOf('#');
    if (hash < 0) {
      throw new IllegalArgumentException("--agent must be CLASS#MEMBER, is " + ref);
    }
    String cls = ref.substring(0, hash);
    String member = ref.substring(hash + 1);
    try {
      Class<?> c = Class.forName(cls);
      Object value;
      try {
        Method m = c.getMethod(member);
        if (!Modifier.isStatic(m.getModifiers())) {
          throw new IllegalArgumentException(ref + " is not static");
        }
        value = m.invoke(null);
      } catch (NoSuchMethodException e) {
        Field f = c.getField(member);
        value = f.get(null);
      }
      if (!(value instanceof BaseAgent)) {
        throw new IllegalArgumentException(ref + " does not give a BaseAgent");
      }
      return (BaseAgent) value;
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException("cannot load agent " + ref + ": " + e, e);
    }
  }
}
