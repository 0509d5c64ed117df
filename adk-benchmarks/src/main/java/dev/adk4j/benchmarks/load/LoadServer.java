package dev.adk4j.benchmarks.load;

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
import java.util.concurrent.TimeUnit;

/**
 * One {@code adk-server} process of the load benchmark ({@link LoadBenchmark} starts one to three):
 * {@link AdkServer} on loopback, an ephemeral port, with the app {@value #APP} on the given store.
 * Its agent: a scripted model that answers after a fixed latency ({@code --latency-ms}, 50 by
 * default), first with a call of {@value #TOOL}, then, after the tool's result, with {@value
 * #ANSWER}; the tool adds one to the shared {@value #APP_COUNTER} with {@code increment} (atomic in
 * the store, across instances) and one to the session's {@value #SESSION_COUNTER} (a read and a
 * write, under the session's lease). Prints {@code listening <url>} once it serves.
 *
 * <pre>
 * java -cp adk-benchmarks/target/benchmarks.jar dev.adk4j.benchmarks.load.LoadServer \
 *     --store jdbc:sqlite:/tmp/load.db [--latency-ms 50]
 * </pre>
 */
public final class LoadServer {
  private LoadServer() {}

  static final String APP = "load";
  static final String TOOL = "count_turn";
  static final String APP_COUNTER = "app:turns";
  static final String SESSION_COUNTER = "turns";
  static final String ANSWER = "Counted.";

  /**
   * A model that answers after a fixed delay (on RxJava's timer), as a remote one would: a call of
   * {@code count_turn}, then, after the tool's response, {@code Counted.}. Zero: at once. Also the
   * model of the devservers benchmark's adk4j server.
   */
  public static final class SlowScriptedModel extends BaseLlm {
    private final long latencyMs;

    public SlowScriptedModel(long latencyMs) {
      super("scripted-load-model");
      this.latencyMs = latencyMs;
    }

    @Override
    public boolean blocksSubscriber() {
      return false; // its latency is a timer: the subscriber is never blocked
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

  /** The tool: the shared counter by increment, the session's by read and write. */
  public static final class CountTool {
    @Annotations.Schema(name = TOOL, description = "Counts this turn.")
    public Map<String, Object> count(ToolContext toolContext) {
      toolContext.state().increment(APP_COUNTER, 1);
      Object mine = toolContext.state().get(SESSION_COUNTER);
      long next = (mine == null ? 0 : ((Number) mine).longValue()) + 1;
      toolContext.state().put(SESSION_COUNTER, next);
      return Map.of(SESSION_COUNTER, next);
    }
  }

  public static void main(String[] args) throws Exception {
    String store = null;
    long latency = 50;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--store":
          store = args[++i];
          break;
        case "--latency-ms":
          latency = Long.parseLong(args[++i]);
          break;
        default:
          throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    LlmAgent agent =
        LlmAgent.builder()
            .name("load_agent")
            .model(new SlowScriptedModel(latency))
            .instruction("Count every turn with the tool.")
            .tools(FunctionTool.create(new CountTool(), "count"))
            .build();
    AdkServer.Builder b = AdkServer.builder().app(APP, agent).port(0);
    if (store != null && !store.equals("memory")) {
      b.store(store);
    }
    AdkServer server = b.start();
    Runtime.getRuntime().addShutdownHook(new Thread(server::close, "load-server-stop"));
    System.out.println("listening " + server.url());
    System.out.flush();
    // Ends when the benchmark closes this process's standard input (or kills it).
    while (System.in.read() >= 0) {
      // nothing to read
    }
    server.close();
    System.exit(0);
  }
}
