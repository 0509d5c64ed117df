package dev.adk4j.tools.mcp;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.testing.ScriptedLlm;
import io.reactivex.rxjava3.core.Maybe;

/**
 * The agent the MCP server tests serve: it greets the user by the name in state ({@code user:name},
 * read through its instruction), repeats the message, counts its turns in the session key {@code
 * visits} (a before-agent callback) and stores its answer under {@code last_answer}.
 */
final class Greeter {
  private Greeter() {}

  static LlmAgent agent() {
    ScriptedLlm model =
        ScriptedLlm.answering(
            request -> {
              String instruction = ScriptedLlm.instruction(request);
              String name = instruction.substring(instruction.indexOf("name is ") + 8).trim();
              return ScriptedLlm.textResponse(
                  "Hello " + name + ", you said: " + ScriptedLlm.userText(request));
            });
    return LlmAgent.builder()
        .name("greeter")
        .description("Greets the user by name.")
        .model(model)
        .instruction("The user's name is {user:name?}")
        .outputKey("last_answer")
        .beforeAgentCallback(
            ctx -> {
              Object visits = ctx.state().getOrDefault("visits", 0);
              ctx.state().put("visits", ((Number) visits).intValue() + 1);
              return Maybe.empty();
            })
        .build();
  }
}
