package dev.adk4j.compat;

// ADK for Java: com.google.adk.agents.LlmAgent, com.google.adk.runner.InMemoryRunner,
// com.google.adk.sessions.Session, com.google.adk.tools.ExampleTool (prefix swap), and
// com.google.adk.examples.Example / BaseExampleProvider -> dev.adk4j.tools.Example /
// BaseExampleProvider (the guide's import table).
import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.BaseExampleProvider;
import dev.adk4j.tools.Example;
import dev.adk4j.tools.ExampleTool;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * ADK's {@code ExampleTool}: few-shot examples put in the system instruction of each model request
 * (not a function the model calls), fixed or chosen per user message by a {@code
 * BaseExampleProvider}.
 */
class ExampleToolProgramTest {

  private static Content model(Part... parts) {
    return Content.builder().role("model").parts(List.of(parts)).build();
  }

  private static Example example(String in, String out) {
    return Example.builder()
        .input(Content.fromParts(Part.fromText(in)))
        .output(List.of(model(Part.fromText(out))))
        .build();
  }

  private static QueueModel runOnce(ExampleTool tool, String message) {
    QueueModel model = new QueueModel(QueueModel.text("done"));
    LlmAgent agent =
        LlmAgent.builder()
            .name("teller")
            .model(model)
            .instruction("Answer briefly.")
            .tools(tool)
            .build();
    InMemoryRunner runner = new InMemoryRunner(agent);
    Session session = runner.sessionService().createSession(runner.appName(), "u").blockingGet();
    runner
        .runAsync("u", session.id(), Content.fromParts(Part.fromText(message)))
        .blockingSubscribe();
    return model;
  }

  @Test
  void fixedExamples_followTheInstruction_andAreNoFunction() {
    Example withTool =
        Example.builder()
            .input(Content.fromParts(Part.fromText("weather in Paris?")))
            .output(
                List.of(
                    model(
                        Part.builder()
                            .functionCall(
                                FunctionCall.builder()
                                    .name("get_weather")
                                    .args(Map.of("city", "Paris"))
                                    .build())
                            .build()),
                    Content.builder()
                        .role("user")
                        .parts(
                            List.of(
                                Part.builder()
                                    .functionResponse(
                                        FunctionResponse.builder()
                                            .name("get_weather")
                                            .response(Map.of("celsius", 21))
                                            .build())
                                    .build()))
                        .build(),
                    model(Part.fromText("21 degrees."))))
            .build();
    ExampleTool tool =
        ExampleTool.builder().addExample(example("2 + 2?", "4")).addExample(withTool).build();

    QueueModel model = runOnce(tool, "3 + 5?");

    String instruction = model.requests.get(0).getFirstSystemInstruction().orElseThrow();
    assertThat(instruction).startsWith("Answer briefly.");
    assertThat(instruction)
        .containsSubsequence(
            "<EXAMPLES>",
            "Example 1:",
            "[user] 2 + 2?",
            "[model] 4",
            "Example 2:",
            "[user] weather in Paris?",
            "[model] calls get_weather({\"city\":\"Paris\"})",
            "[tool] get_weather answered {\"celsius\":21}",
            "[model] 21 degrees.",
            "</EXAMPLES>");
    assertThat(model.requests.get(0).functionDeclarations()).isEmpty();
    assertThat(tool.name()).isEqualTo("example_tool");
    assertThat(tool.declaration()).isEmpty();
  }

  @Test
  void aProvider_choosesTheExamplesForTheUsersMessage() {
    List<String> queries = new CopyOnWriteArrayList<>();
    BaseExampleProvider provider =
        query -> {
          queries.add(query);
          return query.contains("French")
              ? List.of(example("hello in French?", "bonjour"))
              : List.of();
        };
    ExampleTool tool = ExampleTool.builder().name("phrasebook").exampleProvider(provider).build();

    QueueModel french = runOnce(tool, "thanks in French?");
    QueueModel other = runOnce(tool, "what time is it?");

    assertThat(queries).containsExactly("thanks in French?", "what time is it?");
    assertThat(french.requests.get(0).getFirstSystemInstruction().orElseThrow())
        .contains("[user] hello in French?", "[model] bonjour");
    // No example for the message: the instruction is the agent's own.
    assertThat(other.requests.get(0).getFirstSystemInstruction()).contains("Answer briefly.");
    assertThat(tool.name()).isEqualTo("phrasebook");
  }

  @Test
  void aMessageWithoutText_getsNoExamples() {
    ExampleTool tool = ExampleTool.builder().addExample(example("2 + 2?", "4")).build();

    QueueModel model = runOnce(tool, " ");

    assertThat(model.requests.get(0).getFirstSystemInstruction()).contains("Answer briefly.");
  }
}
