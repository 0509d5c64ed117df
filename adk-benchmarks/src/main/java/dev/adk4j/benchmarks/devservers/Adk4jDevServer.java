package dev.adk4j.benchmarks.devservers;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.server.AdkServer;
import dev.adk4j.tools.Annotations;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Flowable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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

  /** A model that answers after a fixed delay (on RxJava's timer), as a remote one would. */
  static final class LatencyModel extends BaseLlm {
    private final long latencyMs;

    LatencyModel(long latencyMs) {
      super("scripted-latency-model");
      this.latencyMs = latencyMs;
    }

    @Override
    public boolean blocksSubscriber() {
      return false; // a timer, or nothing at all: the subscriber is never blocked
    }

    @Override
    public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
      List<Content> contents = request.contents();
      boolean afterTool = false;
      if (!contents.isEmpty()) {
        for (Part p : contents.get(contents.size() - 1).parts().orElse(List.of())) {
          afterTool |= p.functionResponse().isPresent();
        }
      }
      Content answer =
          afterTool
              ? Content.builder().role("model").parts(Part.fromText(ANSWER)).build()
              : Content.builder()
                  .role("model")
                  .parts(
                      Part.builder()
                          .functionCall(FunctionCall.builder().name(TOOL).args(Map.of()).build())
                          .build())
                  .build();
      Flowable<LlmResponse> response = Flowable.just(LlmResponse.builder().content(answer).build());
      return latencyMs > 0 ? response.delay(latencyMs, TimeUnit.MILLISECONDS) : response;
    }
  }

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
            .model(new LatencyModel(latency))
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
