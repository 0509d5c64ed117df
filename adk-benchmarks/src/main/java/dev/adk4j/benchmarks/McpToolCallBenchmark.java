package dev.adk4j.benchmarks;

import dev.adk4j.agents.InvocationContext;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import dev.adk4j.tools.mcp.McpToolset;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of one tool call through an MCP server compared with the same tool as a direct {@code
 * FunctionTool}: {@code tool.runAsync(args, toolContext)} awaited, the tool returning its two
 * arguments as an object. {@code direct}: a {@code FunctionTool} in this JVM. {@code stdio} and
 * {@code http}: an {@code McpToolset} tool calling the {@code args} tool of adk-tools-mcp's
 * scripted test server (Node.js, no dependencies: {@code
 * adk-tools-mcp/src/test/resources/mcp/scripted-server.mjs}, or the file named by {@code
 * -Dadk4j.mcp.server=...}) over a child process's stdio, or over stateless streamable HTTP on
 * 127.0.0.1. The difference is what MCP adds per call: JSON-RPC encoding, the transport, the
 * server's own work (small) and the result mapping.
 *
 * <p>Needs {@code node} on the PATH. Run from the repository root: {@code java -jar
 * adk-benchmarks/target/benchmarks.jar McpToolCallBenchmark}. Unit: microseconds per call.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class McpToolCallBenchmark {

  @Param({"direct", "stdio", "http"})
  public String transport;

  private final Map<String, Object> args = Map.of("city", "Lyon", "days", 2);
  private @Nullable McpToolset toolset;
  private @Nullable Process httpServer;
  private @Nullable BaseTool tool;
  private @Nullable ToolContext context;

  /** The direct tool: returns its arguments, as the MCP server's {@code args} tool does. */
  public static final class Args {
    public static Map<String, Object> args(String city, int days) {
      return Map.of("city", city, "days", days);
    }
  }

  @Setup
  public void setUp() throws Exception {
    InMemorySessionService sessions = new InMemorySessionService();
    Session session = sessions.createSession("bench", "u", null, "s").blockingGet();
    LlmAgent agent = LlmAgent.builder().name("bench").model("gemini-2.5-flash").build();
    InvocationContext ctx =
        InvocationContext.builder().sessionService(sessions).agent(agent).session(session).build();
    context = new ToolContext(ctx, "call-1");
    switch (transport) {
      case "direct" -> tool = FunctionTool.create(Args.class, "args");
      case "stdio" -> {
        toolset = McpToolset.builder().stdio("node", server().toString()).build();
        tool = find(toolset);
      }
      case "http" -> {
        int port = freePort();
        ProcessBuilder pb =
            new ProcessBuilder("node", server().toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("MCP_HTTP_PORT", Integer.toString(port));
        httpServer = pb.start();
        awaitListening(httpServer, port);
        toolset = McpToolset.builder().streamableHttp("http://127.0.0.1:" + port + "/mcp").build();
        tool = find(toolset);
      }
      default -> throw new IllegalArgumentException("transport " + transport);
    }
    Map<String, Object> check = call();
    if (!check.equals(args)) {
      throw new IllegalStateException(transport + " answered " + check);
    }
  }

  @TearDown
  public void tearDown() throws Exception {
    if (toolset != null) {
      toolset.close();
    }
    if (httpServer != null) {
      httpServer.destroy();
      httpServer.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Benchmark
  public Map<String, Object> call() {
    BaseTool t = java.util.Objects.requireNonNull(tool);
    return t.runAsync(args, java.util.Objects.requireNonNull(context)).blockingGet();
  }

  private static BaseTool find(McpToolset set) {
    List<BaseTool> tools = set.tools();
    return tools.stream()
        .filter(t -> t.name().equals("args"))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no 'args' tool among " + tools));
  }

  private static Path server() {
    String given = System.getProperty("adk4j.mcp.server");
    Path p =
        given != null
            ? Path.of(given)
            : Path.of("adk-tools-mcp", "src", "test", "resources", "mcp", "scripted-server.mjs");
    if (!Files.isRegularFile(p) && given == null) {
      p = Path.of("..").resolve(p);
    }
    if (!Files.isRegularFile(p)) {
      throw new IllegalStateException(
          "No MCP test server at "
              + p.toAbsolutePath()
              + ": run from the repository root or pass -Dadk4j.mcp.server=<scripted-server.mjs>");
    }
    return p.toAbsolutePath();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /**
   * Reads the server's stderr until it says {@code listening} (the scripted server writes that line
   * once its port accepts connections), then drains the rest on a daemon thread.
   */
  private static void awaitListening(Process server, int port) throws IOException {
    java.io.BufferedReader err =
        new java.io.BufferedReader(
            new java.io.InputStreamReader(
                server.getErrorStream(), java.nio.charset.StandardCharsets.UTF_8));
    String line;
    while ((line = err.readLine()) != null) {
      if (line.equals("listening")) {
        Thread drain =
            new Thread(
                () -> {
                  try {
                    while (err.readLine() != null) {
                      // discard
                    }
                  } catch (IOException ignored) {
                    // the server stopped
                  }
                },
                "mcp-server-stderr");
        drain.setDaemon(true);
        drain.start();
        return;
      }
    }
    throw new IllegalStateException("The MCP server stopped before listening on port " + port);
  }
}
