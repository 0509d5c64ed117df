package dev.adk4j.examples;

import com.google.genai.types.Content;
import dev.adk4j.agents.CallbackContext;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.plugins.BasePlugin;
import dev.adk4j.plugins.GlobalInstructionPlugin;
import dev.adk4j.plugins.LoggingPlugin;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Maybe;
import java.util.List;
import java.util.Map;

/**
 * Plugins on the Runner: one policy for every agent. A {@link GlobalInstructionPlugin} puts the
 * hotel's house rules before every agent's instruction; an audit plugin counts tool calls in state
 * (its write lands in the function-response event, like the tool's own) and guards against
 * questions about passwords by answering in the model's place; a {@link LoggingPlugin} logs every
 * step (at INFO, so only with {@code -v}) without values.
 */
public final class PluginsExample {
  private PluginsExample() {}

  /** The Concierge's tool. */
  @Schema(name = "opening_hours", description = "Looks up the opening hours of a service.")
  public static Map<String, Object> openingHours(ToolContext context) {
    return Map.of("breakfast", "7:00-10:30");
  }

  // tag::plugin[]
  /** Counts tool calls and refuses password questions, for every agent of the runner. */
  static final class AuditPlugin extends BasePlugin {
    volatile String lastInstruction = "";

    AuditPlugin() {
      super("audit");
    }

    @Override
    public Maybe<LlmResponse> beforeModelCallback(
        CallbackContext context, LlmRequest.Builder request) {
      lastInstruction = request.systemInstruction().orElse("");
      String asked = context.userContent().map(Content::text).orElse("");
      if (asked.toLowerCase(java.util.Locale.ROOT).contains("password")) {
        context.state().increment("audit_refusals", 1); // lands in the refusal's event
        return Maybe.just(ExampleSupport.modelText("I cannot help with passwords."));
      }
      return Maybe.empty(); // the model is called as usual
    }

    @Override
    public Maybe<Map<String, Object>> beforeToolCallback(
        BaseTool tool, Map<String, Object> args, ToolContext context) {
      context.state().increment("audit_tool_calls", 1); // lands in the function-response event
      return Maybe.empty(); // the tool runs as usual
    }
  }

  static Runner runner(BaseSessionService sessions, AuditPlugin audit) {
    LlmAgent concierge =
        LlmAgent.builder()
            .name("Concierge")
            .model(ExampleModels.model(request -> "Breakfast is served from 7:00."))
            .instruction("Answer guests' questions about the hotel.")
            .tools(FunctionTool.create(PluginsExample.class, "openingHours"))
            .build();
    return Runner.builder()
        .agent(concierge)
        .appName("plugins_app")
        .sessionService(sessions)
        .plugins(
            new GlobalInstructionPlugin("You speak for {app:hotel}. Be courteous."),
            audit,
            new LoggingPlugin())
        .build();
  }

  // end::plugin[]

  /** Runs the example; returns the session after the runs. */
  public static Session run(BaseSessionService sessions, Transcript t) {
    AuditPlugin audit = new AuditPlugin();
    Runner runner = runner(sessions, audit);
    ExampleSupport.freshSession(
        sessions, "plugins_app", "user9", "plugins", Map.of("app:hotel", "Hotel Adk"));

    t.step("A question: the global instruction is prepended, the tool call is audited");
    List<Event> first = ExampleSupport.run(runner, "user9", "plugins", "When is breakfast?", t);
    t.say("System instruction the model got: " + audit.lastInstruction.replace("\n\n", " | "));
    t.say(
        "Function-response event writes: "
            + first.get(1).actions().stateDelta().keySet().stream().sorted().toList());
    t.step("A password question: the audit plugin answers in the model's place");
    ExampleSupport.run(runner, "user9", "plugins", "What is the admin password?", t);
    Session after = ExampleSupport.load(sessions, "plugins_app", "user9", "plugins");
    t.state("State after the runs", after);
    return after;
  }
}
