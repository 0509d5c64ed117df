package dev.adk4j.benchmarks.devservers;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.server.AdkServer;
import dev.adk4j.tools.Annotations;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * adk4j's side of the dev-server comparison ({@link DevServersBenchmark}): {@link AdkServer} on
 * loopback serving the app {@value #APP}, in memory or on the store given, with the same agent the
 * ADK for Java and ADK for JavaScript dev servers load (adk-benchmarks/devservers/): a scripted
 * model that answers after a fixed latency, first with a call of {@value #TOOL}, then, after the
 * tool's response, with {@value #ANSWER}; the tool reads the session's {@value #COUNTER} and writes
 * it back plus one. Prints {@code listening <url>} once it serves; runs until it is terminated.
 *
 * <pre>
 * java -cp adk-benchmarks/target/benchmarks.jar dev.adk4j.benchmarks.devservers.Adk4jDevServer \
 *     [--port 0] [--store memory|jdbc:sqlite:/tmp/devservers.db] [--latency-ms 50]
 * </pre>
 */
public final class Adk4jDevServer {
  private Adk4jDevServer() {}

  static final String APP = "latency_agent";
  static final String TOOL = "count_turn";
  static final String COUNTER = "turns";
  static final String ANSWER = "Counted.";

  /** The tool: the session's counter, read and written back plus one. */
  public static final class CountTool {
    @Annotations.Schema(name = TOOL, description = "Counts this turn.")
    public Map<String, Object> count(ToolContext toolContext) {
      Object mine = toolContext.state().get(COUNTER);
      long next = (mine == null ? 0 : ((Number) mine).longValue()) + 1;
      toolContext.state().put(COUNTER, next);
      return Map.of(COUNTER, next);
    }
  }

  public static void main(String[] args) throws Exception {
    String store = "memory";
    long latency = 50;
    int port = 0;
    for (int i = 0; i < args.length; i++) {
      String v = i + 1 < args.length ? args[i + 1] : "";
      switch (args[i]) {
        case "--store":
          store = v;
          break;
        case "--latency-ms":
          latency = Long.parseLong(v);
          break;
        case "--port":
          port = Integer.parseInt(v);
          break;
        default:
          throw new IllegalArgumentException("unknown option " + args[i]);
      }
      i++;
    }
    LlmAgent agent =
        LlmAgent.builder()
            .name(APP)
            .model(new dev.adk4j.benchmarks.load.LoadServer.SlowScriptedModel(latency))
            .instruction("Count every turn with the tool.")
            .tools(FunctionTool.create(new CountTool(), "count"))
            .build();
    AdkServer.Builder b = AdkServer.builder().app(APP, agent).port(port);
    if (!store.equals("memory")) {
      b.store(store);
    }
    AdkServer server = b.start();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  stopped.countDown();
                },
                "devserver-stop"));
    System.out.println("listening " + server.url());
    System.out.flush();
    stopped.await(); // until SIGTERM (the script's kill) runs the hook
  }
}
