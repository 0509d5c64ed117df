package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.models.Gemini;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.testsupport.FakeGeminiServer;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An agent with a function tool, driven through the Runner by the real google-genai client against
 * a local fake Gemini server: the function call and its response cross the wire both ways,
 * streaming and not.
 */
class GeminiRunnerIT {

  /** A tool in the docs' style: counts actions through the ToolContext. */
  public static Map<String, Object> updateActionCount(
      @Schema(name = "amount", description = "How much to add") int amount, ToolContext context) {
    int count = (Integer) context.state().getOrDefault("user_action_count", 0) + amount;
    context.state().put("user_action_count", count);
    context.state().put("temp:last_operation_status", "success");
    return Map.of("user_action_count", count);
  }

  @ParameterizedTest
  @EnumSource(RunConfig.StreamingMode.class)
  void functionCallRoundTrip(RunConfig.StreamingMode mode) {
    try (FakeGeminiServer server = FakeGeminiServer.start();
        Gemini gemini =
            Gemini.builder()
                .modelName("gemini-2.5-flash")
                .apiKey("test-key")
                .baseUrl(server.baseUrl())
                .retryAttempts(1)
                .build()) {
      server.enqueueFunctionCall("updateActionCount", Map.of("amount", 2));
      if (mode == RunConfig.StreamingMode.SSE) {
        server.enqueueTextChunks("Count ", "is now 2.");
      } else {
        server.enqueueText("Count is now 2.");
      }
      LlmAgent agent =
          LlmAgent.builder()
              .name("ToolAgent")
              .model(gemini)
              .instruction("Use the tool for {user:name}.")
              .outputKey("last_reply")
              .tools(FunctionTool.create(GeminiRunnerIT.class, "updateActionCount"))
              .build();
      InMemorySessionService sessions = new InMemorySessionService();
      sessions.createSession("app", "u", Map.of("user:name", "Alice"), "s").blockingGet();

      List<Event> events =
          new Runner(agent, "app", null, sessions)
              .runAsync(
                  "u",
                  "s",
                  Contents.user("Please update the count."),
                  RunConfig.builder().streamingMode(mode).build())
              .toList()
              .blockingGet();

      List<Event> complete = events.stream().filter(e -> !e.partial().orElse(false)).toList();
      assertThat(complete).hasSize(3);
      assertThat(complete.get(0).functionCalls().get(0).name()).contains("updateActionCount");
      assertThat(complete.get(2).stringifyContent()).isEqualTo("Count is now 2.");
      if (mode == RunConfig.StreamingMode.SSE) {
        assertThat(events).anyMatch(e -> e.partial().orElse(false));
      }

      Session s = sessions.getSession("app", "u", "s").blockingGet();
      assertThat(s.state())
          .containsEntry("user_action_count", 2)
          .containsEntry("last_reply", "Count is now 2.")
          .doesNotContainKey("temp:last_operation_status");

      assertThat(server.requests()).hasSize(2);
      JsonNode first = server.requests().get(0).body();
      assertThat(first.at("/systemInstruction/parts/0/text").asText())
          .isEqualTo("Use the tool for Alice.");
      assertThat(first.at("/tools/0/functionDeclarations/0/name").asText())
          .isEqualTo("updateActionCount");
      assertThat(server.requests().get(0).streaming())
          .isEqualTo(mode == RunConfig.StreamingMode.SSE);
      JsonNode second = server.requests().get(1).body();
      JsonNode lastContent = second.at("/contents").get(second.at("/contents").size() - 1);
      JsonNode response = lastContent.at("/parts/0/functionResponse");
      assertThat(response.at("/name").asText()).isEqualTo("updateActionCount");
      assertThat(response.at("/response/user_action_count").asInt()).isEqualTo(2);
    }
  }
}
