package dev.adk4j.examples;

import dev.adk4j.agents.InstructionProvider;
import dev.adk4j.agents.InstructionUtils;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Instruction templating: {@code {key}} placeholders filled from state, an optional {@code
 * {topic?}}, an {@link InstructionProvider} whose text is used as is (literal {@code
 * {{literal_braces}}}), and a provider that fills placeholders itself with {@link
 * InstructionUtils#injectSessionState}.
 */
public final class TemplatingExample {
  private TemplatingExample() {}

  // tag::templating[]
  static final String PERSONALIZED =
      "You are helping {user:name} with {topic}. Their preferred language is {user:language}.";

  static final String OPTIONAL = "Current topic, if any: [{topic?}].";

  /** A provider: its text is sent as is, braces and all. */
  static final InstructionProvider STATIC_PROVIDER =
      context ->
          Single.just("This is an instruction with {{literal_braces}} that will not be replaced.");

  /** A provider that fills placeholders itself; doubled braces stay as written. */
  static final InstructionProvider DYNAMIC_PROVIDER =
      context ->
          InstructionUtils.injectSessionState(
              context, "This is a {adjective} instruction with {{literal_braces}}.");

  // end::templating[]

  /** Runs the four agents; returns the instructions the model received, in order. */
  public static List<String> run(BaseSessionService sessions, Transcript t) {
    List<String> instructions = new ArrayList<>();
    ExampleSupport.freshSession(
        sessions,
        "template_app",
        "user5",
        "templating",
        Map.of("user:name", "Alice", "user:language", "French", "topic", "state management"));
    ExampleSupport.freshSession(
        sessions, "template_app", "user5", "no_topic", Map.of("adjective", "dynamic"));

    t.step("Four agents; a before-model callback prints the instruction each model receives");
    run(
        sessions,
        t,
        instructions,
        "personalized",
        "templating",
        builder -> builder.instruction(PERSONALIZED));
    run(
        sessions,
        t,
        instructions,
        "optional",
        "no_topic",
        builder -> builder.instruction(OPTIONAL));
    run(
        sessions,
        t,
        instructions,
        "static_provider",
        "no_topic",
        b -> b.instruction(STATIC_PROVIDER));
    run(
        sessions,
        t,
        instructions,
        "dynamic_provider",
        "no_topic",
        b -> b.instruction(DYNAMIC_PROVIDER));
    return instructions;
  }

  private static void run(
      BaseSessionService sessions,
      Transcript t,
      List<String> instructions,
      String name,
      String sessionId,
      java.util.function.UnaryOperator<LlmAgent.Builder> instruction) {
    LlmAgent agent =
        instruction
            .apply(LlmAgent.builder().name(name))
            .model(
                ExampleModels.model(
                    request -> "I received: " + request.systemInstruction().orElse("")))
            .beforeModelCallback(
                (ctx, request) -> {
                  String sent = request.systemInstruction().orElse("");
                  instructions.add(sent);
                  t.say("instruction of " + name + ": " + sent);
                  return Maybe.empty();
                })
            .build();
    ExampleSupport.run(
        new Runner(agent, "template_app", null, sessions), "user5", sessionId, "Hi", t);
  }
}
