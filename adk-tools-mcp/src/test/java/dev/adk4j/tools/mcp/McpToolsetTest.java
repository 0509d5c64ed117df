package dev.adk4j.tools.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.FunctionDeclaration;
import dev.adk4j.tools.BaseTool;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * McpToolset against the reference server nobody here wrote, {@code
 * @modelcontextprotocol/server-everything} from npm, over stdio (a child process per toolset) and
 * over streamable HTTP (one server process for the class): listing, schemas, each kind of result,
 * the filter, and one session kept across turns. The tests that list and call share one toolset per
 * transport, as an application keeps one (a stdio server costs about half a second of CPU to
 * start); the filter and session tests open their own.
 */
class McpToolsetTest {

  enum Transport {
    STDIO,
    HTTP
  }

  static Process httpServer;
  static int port;
  static final Map<Transport, McpToolset> SHARED = new java.util.EnumMap<>(Transport.class);

  @BeforeAll
  static void startHttpServer() throws Exception {
    NodeMcp.installed();
    port = NodeMcp.freePort();
    httpServer = NodeMcp.everythingHttp(port);
  }

  @AfterAll
  static void stopHttpServer() throws Exception {
    SHARED.values().forEach(McpToolset::close);
    if (httpServer != null) {
      NodeMcp.stop(httpServer);
    }
  }

  /** The class's toolset over {@code t}, opened by the first test that asks. */
  static synchronized McpToolset shared(Transport t) {
    return SHARED.computeIfAbsent(t, x -> builder(x).build());
  }

  static McpToolset.Builder builder(Transport t) {
    return t == Transport.STDIO
        ? McpToolset.builder().stdio(NodeMcp.everythingStdio())
        : McpToolset.builder().streamableHttp("http://127.0.0.1:" + port + "/mcp");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void tools_areTheServersTools_withTheirJsonSchemas(Transport t) {
    McpToolset set = shared(t);
    List<BaseTool> tools = set.tools();
    assertThat(tools)
        .extracting(BaseTool::name)
        .contains("echo", "get-sum", "get-tiny-image", "get-structured-content");
    BaseTool sum = tools.stream().filter(x -> x.name().equals("get-sum")).findFirst().get();
    FunctionDeclaration d = sum.declaration().get();
    assertThat(d.name()).contains("get-sum");
    assertThat(d.description().get()).contains("sum");
    @SuppressWarnings("unchecked")
    Map<String, Object> schema = (Map<String, Object>) d.parametersJsonSchema().get();
    assertThat(schema).containsEntry("type", "object");
    @SuppressWarnings("unchecked")
    Map<String, Object> props = (Map<String, Object>) schema.get("properties");
    assertThat(props).containsKeys("a", "b");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void textResult_isTheResultText(Transport t) {
    McpToolset set = shared(t);
    assertThat(McpTestAgents.call(set, "echo", Map.of("message", "hello")))
        .isEqualTo(Map.of("result", "Echo: hello"));
    assertThat(McpTestAgents.call(set, "get-sum", Map.of("a", 2, "b", 40)))
        .isEqualTo(Map.of("result", "The sum of 2 and 40 is 42."));
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void structuredContent_isTheResponse(Transport t) {
    McpToolset set = shared(t);
    Map<String, Object> r =
        McpTestAgents.call(set, "get-structured-content", Map.of("location", "Chicago"));
    assertThat(r).containsKeys("temperature", "conditions", "humidity");
    assertThat(r.get("temperature")).isInstanceOf(Number.class);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void imageResult_isAContentListWithTheImage(Transport t) {
    McpToolset set = shared(t);
    Map<String, Object> r = McpTestAgents.call(set, "get-tiny-image", Map.of());
    assertThat(r).containsOnlyKeys("content");
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> blocks = (List<Map<String, Object>>) r.get("content");
    assertThat(blocks).extracting(b -> b.get("type")).contains("text", "image");
    Map<String, Object> image =
        blocks.stream().filter(b -> "image".equals(b.get("type"))).findFirst().get();
    assertThat(image).containsEntry("mimeType", "image/png");
    assertThat((String) image.get("data")).isNotBlank();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void badArguments_giveTheModelAnErrorResponse(Transport t) {
    McpToolset set = shared(t);
    Map<String, Object> r = McpTestAgents.call(set, "get-sum", Map.of("a", "two"));
    assertThat(r).containsOnlyKeys("error");
    assertThat((String) r.get("error")).contains("Tool 'get-sum' failed").contains("McpException");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void toolFilter_keepsTheNamedTools(Transport t) {
    try (McpToolset set = builder(t).toolFilter(List.of("echo", "get-sum", "no-such")).build()) {
      assertThat(set.tools())
          .extracting(BaseTool::name)
          .containsExactlyInAnyOrder("echo", "get-sum");
    }
    try (McpToolset set = builder(t).toolFilter(name -> name.startsWith("get-s")).build()) {
      assertThat(set.tools())
          .extracting(BaseTool::name)
          .containsExactlyInAnyOrder("get-sum", "get-structured-content");
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void oneSession_servesEveryTurn(Transport t) {
    try (McpToolset set = builder(t).build()) {
      for (int i = 0; i < 3; i++) {
        assertThat(McpTestAgents.call(set, "echo", Map.of("message", "turn " + i)))
            .isEqualTo(Map.of("result", "Echo: turn " + i));
      }
      assertThat(set.sessionsOpened()).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void session_agreesOnTheNewestRevisionBothSupport(Transport t) {
    McpToolset set = shared(t);
    System.out.println(
        "MCP revision with server-everything over " + t + ": " + set.protocolVersion());
    assertThat(set.protocolVersion()).isEqualTo("2025-11-25");
  }

  /** Each revision the SDK speaks: a server that answers initialize with it is used as usual. */
  @ParameterizedTest
  @ValueSource(strings = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"})
  void everySupportedRevision_listsAndCalls(String revision) {
    try (McpToolset set =
        McpToolset.builder()
            .stdio(NodeMcp.scripted())
            .env(Map.of("MCP_PROTOCOL", revision))
            .build()) {
      assertThat(set.protocolVersion()).isEqualTo(revision);
      assertThat(McpTestAgents.call(set, "args", Map.of("city", "Lyon", "days", 2)))
          .isEqualTo(Map.of("city", "Lyon", "days", 2));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2023-01-01", "2099-01-01"})
  void anUnsupportedRevision_failsAtBuild_namingIt(String revision) {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                McpToolset.builder()
                    .stdio(NodeMcp.scripted())
                    .env(Map.of("MCP_PROTOCOL", revision))
                    .build())
        .isInstanceOf(McpException.class)
        .hasMessageContaining("Could not connect to MCP server")
        .hasMessageContaining("Unsupported protocol version")
        .hasMessageContaining(
            "this client speaks MCP [2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25]");
  }
}
