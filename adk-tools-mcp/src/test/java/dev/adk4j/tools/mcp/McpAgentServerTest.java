package dev.adk4j.tools.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.internal.Json;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * adk4j agents served over MCP: called by the SDK's own Java client and by the official TypeScript
 * SDK's client (from npm), over streamable HTTP and stdio; the conversation's state goes in and out
 * and stays in the session, on memory, SQLite and PostgreSQL.
 */
class McpAgentServerTest {

  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  @TempDir static Path dir;
  static final List<AutoCloseable> OPENED = new ArrayList<>();

  enum Backend {
    MEMORY,
    SQLITE,
    POSTGRES
  }

  @AfterAll
  static void closeAll() throws Exception {
    for (AutoCloseable c : OPENED) {
      c.close();
    }
    POSTGRES.dropDatabases();
  }

  static BaseSessionService sessions(Backend backend) throws Exception {
    return switch (backend) {
      case MEMORY -> new InMemorySessionService();
      case SQLITE -> opened(new DatabaseSessionService("jdbc:sqlite:" + dir.resolve("server.db")));
      case POSTGRES -> opened(new DatabaseSessionService(POSTGRES.newMigratedDatabase()));
    };
  }

  static <T extends AutoCloseable> T opened(T c) {
    OPENED.add(c);
    return c;
  }

  static McpSyncClient javaClient(McpClientTransport transport) {
    McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60)).build();
    client.initialize();
    return client;
  }

  static McpSyncClient httpClient(int port, Map<String, String> headers) {
    java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder();
    headers.forEach(request::header);
    return javaClient(
        HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + port)
            .endpoint("/mcp")
            .requestBuilder(request)
            .build());
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> structured(McpSchema.CallToolResult r) {
    assertThat(r.isError()).as("isError of %s", r).isNotEqualTo(Boolean.TRUE);
    return (Map<String, Object>) r.structuredContent();
  }

  static String text(McpSchema.CallToolResult r) {
    return ((McpSchema.TextContent) r.content().get(0)).text();
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void javaClientOverHttp_runsTheAgent_andTheSessionKeepsItsState(Backend backend)
      throws Exception {
    BaseSessionService sessions = sessions(backend);
    Runner runner = new Runner(Greeter.agent(), "greeter_app", null, sessions);
    try (McpAgentServer server =
            McpAgentServer.builder().agent(runner).build().serveHttp("127.0.0.1", 0);
        McpSyncClient client = httpClient(server.port(), Map.of())) {
      McpSchema.Tool tool = client.listTools().tools().get(0);
      assertThat(tool.name()).isEqualTo("greeter");
      assertThat(tool.description()).startsWith("Greets the user by name.");
      assertThat(tool.inputSchema().get("required")).isEqualTo(List.of("message"));

      Map<String, Object> first =
          structured(
              client.callTool(
                  new McpSchema.CallToolRequest(
                      "greeter",
                      Map.of(
                          "message", "hi", "userId", "ada", "state", Map.of("user:name", "Ada")))));
      String sessionId = (String) first.get("sessionId");
      assertThat(sessionId).isNotBlank();
      assertThat(first.get("answer")).isEqualTo("Hello Ada, you said: hi");
      assertThat((Map<String, Object>) first.get("state"))
          .containsEntry("visits", 1)
          .containsEntry("user:name", "Ada")
          .containsEntry("last_answer", "Hello Ada, you said: hi");

      McpSchema.CallToolResult again =
          client.callTool(
              new McpSchema.CallToolRequest(
                  "greeter", Map.of("message", "again", "userId", "ada", "sessionId", sessionId)));
      assertThat(text(again)).isEqualTo("Hello Ada, you said: again");
      assertThat((Map<String, Object>) structured(again).get("state")).containsEntry("visits", 2);

      Session stored =
          sessions.getSession("greeter_app", "ada", sessionId, Optional.empty()).blockingGet();
      assertThat(stored.state()).containsEntry("visits", 2).containsEntry("user:name", "Ada");
      assertThat(stored.events()).extracting(e -> e.author()).contains("user", "greeter");
    }
  }

  /** Tools served directly: they write state through their ToolContext. */
  public static final class Notes {
    public static Map<String, Object> remember(String note, dev.adk4j.tools.ToolContext ctx) {
      @SuppressWarnings("unchecked")
      List<Object> notes =
          new ArrayList<>((List<Object>) ctx.state().getOrDefault("user:notes", List.of()));
      notes.add(note);
      ctx.state().put("user:notes", notes);
      ctx.state().put("last_note", note);
      return Map.of("count", notes.size());
    }

    public static Map<String, Object> explode(dev.adk4j.tools.ToolContext ctx) {
      ctx.state().put("half_written", true);
      throw new IllegalStateException("the notebook is on fire");
    }
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void functionTools_areServed_andTheirWritesAreStoredInTheSession(Backend backend)
      throws Exception {
    BaseSessionService sessions = sessions(backend);
    Runner runner = new Runner(Greeter.agent(), "notes_app", null, sessions);
    try (McpAgentServer server =
            McpAgentServer.builder()
                .tools(
                    runner,
                    dev.adk4j.tools.FunctionTool.create(Notes.class, "remember"),
                    dev.adk4j.tools.FunctionTool.create(Notes.class, "explode"))
                .build()
                .serveHttp("127.0.0.1", 0);
        McpSyncClient client = httpClient(server.port(), Map.of())) {
      McpSchema.Tool remember =
          client.listTools().tools().stream()
              .filter(t -> t.name().equals("remember"))
              .findFirst()
              .orElseThrow();
      @SuppressWarnings("unchecked")
      Map<String, Object> props = (Map<String, Object>) remember.inputSchema().get("properties");
      assertThat(props).containsKeys("note", "sessionId", "userId");
      assertThat(((Map<?, ?>) props.get("note")).get("type")).isEqualTo("string");

      Map<String, Object> first =
          structured(
              client.callTool(
                  new McpSchema.CallToolRequest(
                      "remember", Map.of("note", "milk", "userId", "bob", "sessionId", "s1"))));
      assertThat(first).isEqualTo(Map.of("count", 1)); // the call named its session
      Map<String, Object> fresh =
          structured(
              client.callTool(new McpSchema.CallToolRequest("remember", Map.of("note", "x"))));
      assertThat(fresh).containsEntry("count", 1).containsKey("sessionId");
      Map<String, Object> second =
          structured(
              client.callTool(
                  new McpSchema.CallToolRequest(
                      "remember", Map.of("note", "eggs", "userId", "bob", "sessionId", "s1"))));
      assertThat(second).containsEntry("count", 2);

      McpSchema.CallToolResult failed =
          client.callTool(
              new McpSchema.CallToolRequest("explode", Map.of("userId", "bob", "sessionId", "s1")));
      assertThat(failed.isError()).isTrue();
      assertThat(text(failed)).contains("the notebook is on fire");

      Session stored =
          sessions.getSession("notes_app", "bob", "s1", Optional.empty()).blockingGet();
      assertThat(stored.state())
          .containsEntry("user:notes", List.of("milk", "eggs"))
          .containsEntry("last_note", "eggs")
          .doesNotContainKey("half_written");
      assertThat(stored.events()).hasSize(6); // a call and a response per MCP call
      assertThat(stored.events().get(1).actions().stateDelta())
          .containsEntry("user:notes", List.of("milk"));
      assertThat(stored.events().get(1).functionResponses()).hasSize(1);
    }
  }

  @Test
  void badArguments_areErrorResults_namingTheArgument() {
    Runner runner = new Runner(Greeter.agent(), "greeter_app", null, new InMemorySessionService());
    try (McpAgentServer server =
            McpAgentServer.builder().agent(runner).build().serveHttp("127.0.0.1", 0);
        McpSyncClient client = httpClient(server.port(), Map.of())) {
      McpSchema.CallToolResult appKey =
          client.callTool(
              new McpSchema.CallToolRequest(
                  "greeter", Map.of("message", "hi", "state", Map.of("app:flag", true))));
      assertThat(appKey.isError()).isTrue();
      assertThat(text(appKey)).contains("may not set 'app:flag'");
      McpSchema.CallToolResult blank =
          client.callTool(new McpSchema.CallToolRequest("greeter", Map.of("message", " ")));
      assertThat(blank.isError()).isTrue();
      assertThat(text(blank)).contains("Argument 'message' must be a non-empty string");
    }
  }

  @Test
  void bearerToken_isRequiredOverHttp() {
    Runner runner = new Runner(Greeter.agent(), "greeter_app", null, new InMemorySessionService());
    try (McpAgentServer server =
        McpAgentServer.builder()
            .agent(runner)
            .bearerToken("s3cret")
            .build()
            .serveHttp("127.0.0.1", 0)) {
      assertThatThrownBy(() -> httpClient(server.port(), Map.of()))
          .isInstanceOf(RuntimeException.class);
      try (McpSyncClient client =
          httpClient(server.port(), Map.of("Authorization", "Bearer s3cret"))) {
        assertThat(client.listTools().tools())
            .extracting(McpSchema.Tool::name)
            .containsExactly("greeter");
      }
    }
  }

  @Test
  void javaClientOverStdio_runsTheAgentInAChildProcess() {
    List<String> cmd = StdioAgentMain.command();
    StdioClientTransport transport =
        new StdioClientTransport(
            ServerParameters.builder(cmd.get(0)).args(cmd.subList(1, cmd.size())).build(),
            new JacksonMcpJsonMapper(Json.newMapper()));
    try (McpSyncClient client = javaClient(transport)) {
      assertThat(client.listTools().tools())
          .extracting(McpSchema.Tool::name)
          .containsExactly("greeter");
      Map<String, Object> first =
          structured(
              client.callTool(
                  new McpSchema.CallToolRequest(
                      "greeter", Map.of("message", "hi", "state", Map.of("user:name", "Lin")))));
      Map<String, Object> second =
          structured(
              client.callTool(
                  new McpSchema.CallToolRequest(
                      "greeter", Map.of("message", "bye", "sessionId", first.get("sessionId")))));
      assertThat(second.get("answer")).isEqualTo("Hello Lin, you said: bye");
      assertThat((Map<String, Object>) second.get("state")).containsEntry("visits", 2);
    }
  }

  @Test
  void typescriptSdkClient_overHttpAndStdio() throws Exception {
    Path prefix = NodeMcp.installed();
    Path script = prefix.resolve("sdk-client.mjs");
    Files.copy(
        NodeMcp.resource("mcp/sdk-client.mjs"),
        script,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Runner runner = new Runner(Greeter.agent(), "greeter_app", null, new InMemorySessionService());
    try (McpAgentServer server =
        McpAgentServer.builder().agent(runner).build().serveHttp("127.0.0.1", 0)) {
      assertTsClientConversation(
          List.of("node", script.toString(), "http", "http://127.0.0.1:" + server.port() + "/mcp"));
    }
    List<String> stdio = new ArrayList<>(List.of("node", script.toString(), "stdio"));
    stdio.addAll(StdioAgentMain.command());
    assertTsClientConversation(stdio);
  }

  @SuppressWarnings("unchecked")
  private static void assertTsClientConversation(List<String> command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
    String out =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    String err =
        new String(p.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("sdk-client.mjs failed: %s%s", out, err).isZero();
    Map<String, Object> result = Json.fromJson(out.trim(), Map.class);
    assertThat((List<String>) result.get("tools")).containsExactly("greeter");
    Map<String, Object> second = (Map<String, Object>) result.get("second");
    assertThat(second.get("answer")).isEqualTo("Hello Grace, you said: second");
    assertThat((Map<String, Object>) second.get("state")).containsEntry("visits", 2);
    assertThat(second.get("sessionId"))
        .isEqualTo(((Map<String, Object>) result.get("first")).get("sessionId"));
  }
}
