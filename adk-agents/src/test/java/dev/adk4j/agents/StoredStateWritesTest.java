package dev.adk4j.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.FunctionCall;
import dev.adk4j.sessions.Session;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.tools.BaseTool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An invocation writes the session copy it read from storage, which shares the stored state until
 * its first write: tools running at once on several threads all land their writes, a list read from
 * state can be changed in place and written back (the usual read-modify-write of a tool), and none
 * of it reaches a copy read before the run or storage other than through the appended events.
 */
class StoredStateWritesTest {

  static Map<String, Object> initial() {
    Map<String, Object> state = new HashMap<>();
    state.put("cart", new ArrayList<>(List.of("book")));
    state.put("count", 0);
    state.put("user:name", "Alice");
    return state;
  }

  final AgentHarness harness = new AgentHarness(initial());

  @Test
  void toolsRunningAtOnce_onAFreshlyReadSession_allLandTheirWrites() {
    int calls = 4;
    CyclicBarrier together = new CyclicBarrier(calls);
    List<BaseTool> tools = new ArrayList<>();
    List<FunctionCall> functionCalls = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      String name = "tool" + i;
      tools.add(
          LlmAgentEndToEndTest.tool(
              name,
              ctx -> {
                try {
                  together.await(20, TimeUnit.SECONDS); // all first writes race
                } catch (Exception e) {
                  throw new AssertionError("the tool calls did not overlap", e);
                }
                ctx.state().put("done_" + name, true);
                ctx.state().increment("count", 1);
                if (name.equals("tool0")) {
                  @SuppressWarnings("unchecked")
                  List<Object> cart = (List<Object>) ctx.state().get("cart");
                  cart.add("pen");
                  ctx.state().put("cart", cart);
                }
                return Map.of("ok", true);
              }));
      functionCalls.add(ScriptedLlm.functionCall(name, Map.of()));
    }
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .thenFunctionCalls(functionCalls.toArray(FunctionCall[]::new))
            .thenText("done")
            .build();
    LlmAgent agent = LlmAgent.builder().name("Parallel").model(llm).tools(tools).build();
    Session before = harness.stored();

    harness.run(agent, "go");

    Map<String, Object> stored = harness.stored().state();
    for (int i = 0; i < calls; i++) {
      assertThat(stored).containsEntry("done_tool" + i, true);
    }
    assertThat(stored)
        .containsEntry("count", calls)
        .containsEntry("cart", List.of("book", "pen"))
        .containsEntry("user:name", "Alice");
    assertThat(harness.lastContext().session().state()).containsEntry("count", calls);
    assertThat(before.state()).isEqualTo(initial());
  }

  @Test
  void aValueChangedInPlaceWithoutAWrite_isNotStored() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .thenFunctionCalls(ScriptedLlm.functionCall("peek", Map.of()))
            .thenText("ok")
            .build();
    LlmAgent agent =
        LlmAgent.builder()
            .name("Peeker")
            .model(llm)
            .tools(
                LlmAgentEndToEndTest.tool(
                    "peek",
                    ctx -> {
                      @SuppressWarnings("unchecked")
                      List<Object> cart = (List<Object>) ctx.state().get("cart");
                      cart.add("ghost"); // no put: the delta does not record it
                      return Map.of("size", cart.size());
                    }))
            .build();

    harness.run(agent, "go");

    assertThat(harness.stored().state()).containsEntry("cart", List.of("book"));
  }
}
