package dev.adk4j.tools.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.runner.Runner;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.BaseTool;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Servers that are not there, never answer, crash, hang, fail, answer too much, change their tool
 * list or offer a broken schema: each gives a clear error at the right time, and an invocation that
 * meets one goes on with an error response the model sees.
 */
class McpFaultsTest {

  @TempDir Path dir;

  static McpToolset scripted() {
    return McpToolset.builder().stdio(NodeMcp.scripted()).build();
  }

  @Test
  void missingCommand_failsAtBuild_namingTheCommand() {
    assertThatThrownBy(
            () -> McpToolset.builder().stdio("adk4j-no-such-mcp-server", "--flag").build())
        .isInstanceOf(McpException.class)
        .hasMessageContaining("Could not connect to MCP server 'adk4j-no-such-mcp-server --flag'")
        .hasMessageContaining("no program 'adk4j-no-such-mcp-server' on the PATH");
    assertThatThrownBy(
            () -> McpToolset.builder().stdio(dir.resolve("server.sh").toString()).build())
        .isInstanceOf(McpException.class)
        .hasMessageContaining("server.sh' is not an executable file");
  }

  @Test
  void nothingListening_failsAtBuild_namingTheUrl() throws Exception {
    String url = "http://127.0.0.1:" + NodeMcp.freePort() + "/mcp";
    assertThatThrownBy(
            () ->
                McpToolset.builder()
                    .streamableHttp(url)
                    .connectTimeout(Duration.ofSeconds(5))
                    .build())
        .isInstanceOf(McpException.class)
        .hasMessageContaining("Could not connect to MCP server '" + url + "' (HTTP)");
  }

  @Test
  void notAUrl_isRefused() {
    assertThatThrownBy(() -> McpToolset.builder().streamableHttp("ftp://x/mcp").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'ftp://x/mcp'");
    assertThatThrownBy(() -> McpToolset.builder().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("stdio(...) or streamableHttp(...)");
  }

  @Test
  void silentStdioServer_failsAtBuild_afterTheConnectTimeout() {
    List<String> command = NodeMcp.scripted();
    assertThatThrownBy(
            () ->
                McpToolset.builder()
                    .stdio(command)
                    .env(Map.of("MCP_SILENT", "1"))
                    .connectTimeout(Duration.ofSeconds(2))
                    .build())
        .isInstanceOf(McpException.class)
        .hasMessageContaining(String.join(" ", command))
        .hasMessageContaining("no answer to initialize within 2000 ms");
  }

  @Test
  void silentHttpServer_failsAtBuild_afterTheConnectTimeout() throws Exception {
    CountDownLatch stop = new CountDownLatch(1);
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
    server.createContext(
        "/mcp",
        exchange -> {
          try {
            stop.await(); // reads the request, never answers
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          exchange.close();
        });
    server.start();
    String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/mcp";
    try {
      assertThatThrownBy(
              () ->
                  McpToolset.builder()
                      .streamableHttp(url)
                      .connectTimeout(Duration.ofSeconds(2))
                      .build())
          .isInstanceOf(McpException.class)
          .hasMessageContaining("'" + url + "' (HTTP)")
          .hasMessageContaining("no answer to initialize within 2000 ms");
    } finally {
      stop.countDown();
      server.stop(0);
    }
  }

  @Test
  void serverThatCrashesMidCall_givesAnErrorResponse_andTheNextCallStartsItAgain() {
    try (McpToolset set = scripted()) {
      String firstPid = (String) McpTestAgents.call(set, "pid", Map.of()).get("result");
      Map<String, Object> crashed = McpTestAgents.call(set, "crash", Map.of());
      assertThat((String) crashed.get("error"))
          .contains("Tool 'crash' failed")
          .contains("McpException")
          .contains("scripted-server.mjs")
          .containsAnyOf("exited during tools/call of tool 'crash'", "failed during tools/call");
      String secondPid = (String) McpTestAgents.call(set, "pid", Map.of()).get("result");
      assertThat(secondPid).isNotEqualTo(firstPid);
      assertThat(set.sessionsOpened()).isEqualTo(2);
    }
  }

  @Test
  void httpServerThatCrashesMidCall_andIsRestarted_isUsedAgain() throws Exception {
    int port = NodeMcp.freePort();
    Process server = NodeMcp.scriptedHttp(port);
    try (McpToolset set =
        McpToolset.builder().streamableHttp("http://127.0.0.1:" + port + "/mcp").build()) {
      String firstPid = (String) McpTestAgents.call(set, "pid", Map.of()).get("result");
      assertThat((String) McpTestAgents.call(set, "crash", Map.of()).get("error"))
          .contains("Tool 'crash' failed")
          .contains("'http://127.0.0.1:" + port + "/mcp' (HTTP)");
      server.waitFor();
      // While it is down the tools listed before are offered, and a call is an error response.
      assertThat((String) McpTestAgents.call(set, "pid", Map.of()).get("error"))
          .contains("Tool 'pid' failed")
          .contains("'http://127.0.0.1:" + port + "/mcp' (HTTP)");
      server = NodeMcp.scriptedHttp(port);
      String secondPid = (String) McpTestAgents.call(set, "pid", Map.of()).get("result");
      assertThat(secondPid).isNotEqualTo(firstPid);
    } finally {
      NodeMcp.stop(server);
    }
  }

  @Test
  void callThatNeverAnswers_timesOut_andTheInvocationGoesOn() {
    try (McpToolset set =
        McpToolset.builder().stdio(NodeMcp.scripted()).callTimeout(Duration.ofSeconds(1)).build()) {
      ScriptedLlm model =
          ScriptedLlm.builder().thenFunctionCall("hang", Map.of()).thenText("sorry").build();
      LlmAgent agent = LlmAgent.builder().name("agent").model(model).toolsets(set).build();
      Runner runner = new InMemoryRunner(agent, "app");
      runner.sessionService().createSession("app", "u", null, "s").blockingGet();
      List<Event> events = runner.runAsync("u", "s", Contents.user("go")).toList().blockingGet();
      assertThat((String) McpTestAgents.functionResponse(events).get("error"))
          .contains("gave no answer to tools/call of tool 'hang' within 1000 ms");
      assertThat(events.get(events.size() - 1).stringifyContent()).isEqualTo("sorry");
      // The session is kept: the server is alive, only that call was abandoned.
      assertThat(McpTestAgents.call(set, "pid", Map.of())).containsKey("result");
      assertThat(set.sessionsOpened()).isEqualTo(1);
    }
  }

  @Test
  void isErrorResult_isAnErrorResponseWithTheServersText() {
    try (McpToolset set = scripted()) {
      assertThat((String) McpTestAgents.call(set, "fail", Map.of()).get("error"))
          .contains("Tool 'fail' failed")
          .contains("reported an error: the weather service is down");
    }
  }

  @Test
  void resultOverMaxResultBytes_isAnErrorResponse_andNothingLargeIsStored() {
    try (McpToolset set = scripted()) {
      // Over the default limit, which is the default SessionLimits value limit (1 MiB).
      assertThat((String) McpTestAgents.call(set, "big", Map.of("size", 2_000_000)).get("error"))
          .contains("Tool 'big' failed")
          .contains("more than maxResultBytes (1048576)");
    }
    try (McpToolset set =
        McpToolset.builder().stdio(NodeMcp.scripted()).maxResultBytes(1000).build()) {
      assertThat(McpTestAgents.call(set, "big", Map.of("size", 900))).containsKey("result");
      assertThat((String) McpTestAgents.call(set, "big", Map.of("size", 5000)).get("error"))
          .contains("more than maxResultBytes (1000)");
    }
  }

  @Test
  void toolListThatChangesBetweenTurns_isListedAgainAtEveryModelCall() throws Exception {
    Path tools = dir.resolve("tools.json");
    Files.writeString(tools, toolsJson("alpha"));
    try (McpToolset set =
        McpToolset.builder()
            .stdio(NodeMcp.scripted())
            .env(Map.of("MCP_TOOLS_FILE", tools.toString()))
            .build()) {
      ScriptedLlm model =
          ScriptedLlm.builder()
              .thenFunctionCall("alpha", Map.of())
              .thenText("one")
              .thenFunctionCall("alpha", Map.of())
              .thenText("two")
              .build();
      LlmAgent agent = LlmAgent.builder().name("agent").model(model).toolsets(set).build();
      Runner runner = new InMemoryRunner(agent, "app");
      runner.sessionService().createSession("app", "u", null, "s").blockingGet();
      List<Event> first = runner.runAsync("u", "s", Contents.user("1")).toList().blockingGet();
      assertThat(McpTestAgents.functionResponse(first)).isEqualTo(Map.of("result", "alpha ran"));
      assertThat(ScriptedLlm.toolNames(model.request(0))).containsExactly("alpha");

      Files.writeString(tools, toolsJson("beta"));
      List<Event> second = runner.runAsync("u", "s", Contents.user("2")).toList().blockingGet();
      assertThat(ScriptedLlm.toolNames(model.request(2))).containsExactly("beta");
      assertThat((String) McpTestAgents.functionResponse(second).get("error"))
          .contains("Tool 'alpha' is not available to agent 'agent'")
          .contains("[beta]");
      model.assertScriptConsumed();
    }
  }

  @Test
  void toolWithAnInvalidSchema_isLeftOut_andTheOthersStay() throws Exception {
    Path tools = dir.resolve("tools.json");
    Files.writeString(
        tools,
        "["
            + tool("good", "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}")
            + ","
            + tool("typo", "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"strnig\"}}}")
            + ","
            + tool("listprops", "{\"type\":\"object\",\"properties\":[\"q\"]}")
            + ","
            + tool("notobject", "{\"type\":\"string\"}")
            + ","
            + tool("badrequired", "{\"type\":\"object\",\"required\":\"q\"}")
            + "]");
    try (McpToolset set =
        McpToolset.builder()
            .stdio(NodeMcp.scripted())
            .env(Map.of("MCP_TOOLS_FILE", tools.toString()))
            .build()) {
      assertThat(set.tools()).extracting(BaseTool::name).containsExactly("good");
    }
  }

  @Test
  void closingTheRunner_endsTheSession_andStopsTheServerProcess() throws Exception {
    McpToolset set = scripted();
    ScriptedLlm model =
        ScriptedLlm.builder().thenFunctionCall("pid", Map.of()).thenText("done").build();
    LlmAgent agent = LlmAgent.builder().name("agent").model(model).toolsets(set).build();
    Runner runner = new InMemoryRunner(agent, "app");
    runner.sessionService().createSession("app", "u", null, "s").blockingGet();
    List<Event> events = runner.runAsync("u", "s", Contents.user("go")).toList().blockingGet();
    long pid = Long.parseLong((String) McpTestAgents.functionResponse(events).get("result"));
    assertThat(ProcessHandle.of(pid)).isPresent();

    runner.close();

    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)
        && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    assertThatThrownBy(set::tools).isInstanceOf(McpException.class).hasMessageContaining("closed");
  }

  private static String toolsJson(String name) {
    return "[" + tool(name, "{\"type\":\"object\",\"properties\":{}}") + "]";
  }

  private static String tool(String name, String schema) {
    return "{\"name\":\""
        + name
        + "\",\"description\":\""
        + name
        + "\",\"inputSchema\":"
        + schema
        + "}";
  }
}
