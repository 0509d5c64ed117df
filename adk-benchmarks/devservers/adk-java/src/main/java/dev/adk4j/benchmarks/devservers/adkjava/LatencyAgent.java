package dev.adk4j.benchmarks.devservers.adkjava;

import com.google.adk.agents.BaseAgent;
import com.google.adk.agents.LlmAgent;
import com.google.adk.models.BaseLlm;
import com.google.adk.models.BaseLlmConnection;
import com.google.adk.models.LlmRequest;
import com.google.adk.models.LlmResponse;
import com.google.adk.tools.Annotations;
import com.google.adk.tools.FunctionTool;
import com.google.adk.tools.ToolContext;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import io.reactivex.rxjava3.core.Flowable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The dev-server comparison's agent for ADK for Java's dev server ({@code google-adk-dev}), found
 * by its {@code CompiledAgentLoader} through the public static {@link #ROOT_AGENT}. The same turn
 * as adk4j's side ({@code dev.adk4j.benchmarks.devservers.Adk4jDevServer}) and ADK for
 * JavaScript's ({@code adk-js/latency_agent/agent.js}): a scripted model that answers after a fixed
 * latency (system property {@code devservers.latencyMs}, 50 by default), first with a call of
 * {@code count_turn}, then, after the tool's response, with {@code Counted.}; the tool reads the
 * session's {@code turns} and writes it back plus one.
 */
public final class LatencyAgent {
  private LatencyAgent() {}

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

    @Override
    public BaseLlmConnection connect(LlmRequest request) {
      throw new UnsupportedOperationException("the scripted model has no live connection");
    }
  }

  /** The tool: the session's counter, read and written back plus one. */
  @Annotations.Schema(name = TOOL, description = "Counts this turn.")
  public static Map<String, Object> countTurn(ToolContext toolContext) {
    Object mine = toolContext.state().get(COUNTER);
    long next = (mine == null ? 0 : ((Number) mine).longValue()) + 1;
    toolContext.state().put(COUNTER, next);
    return Map.of(COUNTER, next);
  }

  public static final BaseAgent ROOT_AGENT =
      LlmAgent.builder()
          .name("latency_agent")
          .model(new LatencyModel(Long.getLong("devservers.latencyMs", 50L)))
          .instruction("Count every turn with the tool.")
          .tools(FunctionTool.create(LatencyAgent.class, "countTurn"))
          .build();
}
