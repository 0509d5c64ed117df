package dev.adk4j.examples;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.server.AdkServer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The examples' agents in the ADK web dev UI: starts {@link AdkServer} with them, on a SQLite file
 * ({@code <adk4j.data>/server.db}, {@code data/} by default), and the offline demo model unless the
 * environment names a live one ({@link ExampleModels}: a Gemini, OpenAI-compatible or Anthropic key
 * or base URL, or {@code ADK4J_MODEL=provider/model}).
 *
 * <pre>
 * ./mvnw -q -B -Pserver -DskipTests package                                   # then open /dev-ui/
 * ./mvnw -q -B -Pserver -DskipTests package -Dserver.args="--port 8080 --debug"
 * </pre>
 *
 * Arguments: {@link AdkServer.Builder#options}'s ({@code --port}, {@code --host}, {@code --store},
 * {@code --cors}, {@code --token}, ...).
 */
public final class ExampleServer {
  private ExampleServer() {}

  /** The apps: one per example agent. */
  static AdkServer.Builder withExampleApps(AdkServer.Builder b) {
    return b.app(
            "greeting",
            LlmAgent.builder()
                .name("Greeter")
                .description("Greets; its answer is stored in state['last_greeting'] (outputKey).")
                .model(ExampleModels.model(r -> "Hello there! How can I help you today?"))
                .instruction("Generate a short, friendly greeting.")
                .outputKey("last_greeting")
                .build())
        .app(
            "tool_state",
            ToolStateExample.agent()
                .description("A tool that counts the user's actions in state, through ToolContext.")
                .build())
        .app(
            "callback_state",
            CallbackStateExample.agent()
                .description("An after-agent callback counts answers in user scope.")
                .build())
        .app("pipeline", PipelineExample.pipeline(line -> {}));
  }

  /**
   * Starts the server with the example apps on {@code <adk4j.data>/server.db} (unless {@code
   * --store} says otherwise) and the given options; the caller closes it.
   */
  public static AdkServer start(String... args) throws java.io.IOException {
    Path data = Path.of(System.getProperty("adk4j.data", "data"));
    Files.createDirectories(data);
    AdkServer.Builder b =
        AdkServer.builder().store("jdbc:sqlite:" + data.resolve("server.db")).options(args);
    return withExampleApps(b).start();
  }

  public static void main(String[] args) throws Exception {
    AdkServer server;
    try {
      server = start(args);
    } catch (IllegalArgumentException e) {
      System.err.println("adk4j server: " + e.getMessage());
      System.exit(2);
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(server::close, "adk-server-stop"));
    System.out.println("adk4j server: apps " + server.appNames());
    System.out.println(ExampleModels.describe());
    System.out.println("Dev UI: " + server.url().resolve("/dev-ui/") + "   (Ctrl-C stops)");
    server.awaitStop();
  }
}
