package dev.adk4j.server;

import static dev.adk4j.server.ServerClient.json;
import static dev.adk4j.server.ServerClient.runBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.artifacts.InMemoryArtifactService;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wire contract of ADK for Python's server, endpoint by endpoint, success and failure: status,
 * body keys and their JSON types, headers. A client written against ADK's server reads these
 * shapes; where adk4j differs on purpose, {@code docs/server.md} says so and the assertion names
 * it.
 */
class WireContractTest {
  @TempDir static Path dir;

  static DatabaseSessionService store;
  static AdkServer server;
  static ServerClient client;

  static final String S = "/apps/app/users/u/sessions";

  /** A tool for the function-call events. */
  public static Map<String, Object> lookup(@Schema(name = "q") String q) {
    return Map.of("found", q);
  }

  static final java.util.concurrent.atomic.AtomicInteger TRANSFERS =
      new java.util.concurrent.atomic.AtomicInteger();

  /** A tool a person confirms first. */
  public static Map<String, Object> transfer(@Schema(name = "amount") int amount) {
    TRANSFERS.incrementAndGet();
    return Map.of("transferred", amount);
  }

  @BeforeAll
  static void start() {
    store = new DatabaseSessionService("jdbc:sqlite:" + dir.resolve("wire.db"));
    LlmAgent agent =
        LlmAgent.builder()
            .name("root")
            .description("answers")
            .instruction("Answer.")
            .model(
                ScriptedLlm.answering(
                    req ->
                        ScriptedLlm.functionResponses(req).isEmpty()
                                && ScriptedLlm.userText(req).startsWith("look")
                            ? ScriptedLlm.functionCallResponse("lookup", Map.of("q", "x"))
                            : ScriptedLlm.textResponse("done")))
            .tools(FunctionTool.create(WireContractTest.class, "lookup"))
            .build();
    server =
        AdkServer.builder()
            .app("app", agent)
            .app(
                "hitl",
                LlmAgent.builder()
                    .name("teller")
                    .model(
                        ScriptedLlm.answering(
                            req ->
                                ScriptedLlm.functionResponses(req).isEmpty()
                                    ? ScriptedLlm.functionCallResponse(
                                        "transfer", Map.of("amount", 5))
                                    : ScriptedLlm.textResponse("sent")))
                    .tools(FunctionTool.create(WireContractTest.class, "transfer", true))
                    .build())
            .sessionService(store)
            .artifactService(new InMemoryArtifactService())
            .port(0)
            .start();
    client = new ServerClient(server);
  }

  @AfterAll
  static void stop() {
    server.close();
    store.close();
  }

  private static String newSession() {
    HttpResponse<String> r = client.post(S, null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return json(r).get("id").asText();
  }

  /** ADK's validation error: 422, {@code {"detail": [{"type", "loc", "msg"}]}}. */
  private static void assertValidation(HttpResponse<String> r, String type, Object... loc) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    JsonNode detail = json(r).get("detail");
    assertThat(detail.isArray()).as(r.body()).isTrue();
    JsonNode first = detail.get(0);
    assertThat(first.get("type").asText()).isEqualTo(type);
    assertThat(first.get("msg").isTextual()).isTrue();
    assertThat(first.get("loc").isArray()).isTrue();
    for (int i = 0; i < loc.length; i++) {
      JsonNode at = first.get("loc").get(i);
      if (loc[i] instanceof Integer n) {
        assertThat(at.isInt()).as(r.body()).isTrue();
        assertThat(at.asInt()).isEqualTo(n);
      } else {
        assertThat(at.asText()).as(r.body()).isEqualTo(loc[i]);
      }
    }
  }

  /** ADK's other errors: {@code {"detail": "message"}}. */
  private static void assertDetail(HttpResponse<String> r, int status, String words) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    JsonNode body = json(r);
    assertThat(body.get("detail").isTextual()).as(r.body()).isTrue();
    assertThat(body.get("detail").asText()).contains(words);
    assertThat(body.has("error")).isFalse();
  }

  private static void assertSessionShape(JsonNode s) {
    assertThat(s.get("id").isTextual()).isTrue();
    assertThat(s.get("appName").asText()).isEqualTo("app");
    assertThat(s.get("userId").asText()).isEqualTo("u");
    assertThat(s.get("state").isObject()).isTrue();
    assertThat(s.get("events").isArray()).isTrue();
    assertThat(s.get("lastUpdateTime").isFloatingPointNumber()).isTrue();
    assertThat(s.get("lastUpdateTime").asDouble()).isBetween(1e9, 1e11); // seconds
  }

  private static void assertEventShape(JsonNode e) {
    assertThat(e.get("id").isTextual()).isTrue();
    assertThat(e.get("invocationId").isTextual()).isTrue();
    assertThat(e.get("author").isTextual()).isTrue();
    assertThat(e.get("timestamp").isFloatingPointNumber()).isTrue();
    assertThat(e.get("timestamp").asDouble()).isBetween(1e9, 1e11);
    JsonNode actions = e.get("actions");
    for (String key :
        List.of(
            "stateDelta", "artifactDelta", "requestedAuthConfigs", "requestedToolConfirmations")) {
      assertThat(actions.get(key)).as(key + " in " + e).isNotNull();
      assertThat(actions.get(key).isObject()).as(key).isTrue();
    }
  }

  @Test
  void healthVersionAndListApps() {
    assertThat(json(client.get("/health")).get("status").asText()).isEqualTo("ok");
    JsonNode v = json(client.get("/version"));
    assertThat(v.get("version").isTextual()).isTrue();
    assertThat(v.get("language").asText()).isEqualTo("java");
    assertThat(v.get("language_version").isTextual()).isTrue();

    JsonNode apps = json(client.get("/list-apps"));
    assertThat(apps.isArray()).isTrue();
    assertThat(apps.get(0).asText()).isEqualTo("app");
    JsonNode detailed = json(client.get("/list-apps?detailed=true")).get("apps").get(0);
    assertThat(detailed.get("name").asText()).isEqualTo("app");
    assertThat(detailed.get("rootAgentName").asText()).isEqualTo("root");
    assertThat(detailed.get("description").asText()).isEqualTo("answers");
  }

  @Test
  void appInfo() {
    HttpResponse<String> r = client.get("/apps/app/app-info");
    assertThat(r.statusCode()).isEqualTo(200);
    JsonNode info = json(r);
    assertThat(info.get("name").asText()).isEqualTo("app");
    assertThat(info.get("rootAgentName").asText()).isEqualTo("root");
    assertThat(info.get("description").asText()).isEqualTo("answers");
    assertThat(info.get("language").isTextual()).isTrue();
    assertThat(info.get("isComputerUse").asBoolean()).isFalse();
    JsonNode root = info.get("agents").get("root");
    assertThat(root.get("name").asText()).isEqualTo("root");
    assertThat(root.get("sub_agents").isArray()).isTrue();
    assertThat(root.get("tools").get(0).get("functionDeclarations").get(0).get("name").asText())
        .isEqualTo("lookup");
    assertDetail(client.get("/apps/nope/app-info"), 404, "app 'nope' not found");
  }

  @Test
  void sessions_createGetListPatchDelete() {
    HttpResponse<String> created = client.post(S, "{\"state\":{\"k\":1}}");
    assertThat(created.statusCode()).isEqualTo(200);
    assertThat(created.headers().firstValue("Content-Type")).hasValue("application/json");
    JsonNode s = json(created);
    assertSessionShape(s);
    String id = s.get("id").asText();

    assertSessionShape(json(client.get(S + "/" + id)));
    assertDetail(client.get(S + "/missing"), 404, "session 'missing'");

    // the list: an array, each session with an (empty) events list
    JsonNode list = json(client.get(S));
    assertThat(list.isArray()).isTrue();
    list.forEach(
        n -> {
          assertSessionShape(n);
          assertThat(n.get("events")).isEmpty();
        });
    // paging is an opt-in that keeps the array; the next page's token is in a header
    newSession();
    HttpResponse<String> page = client.get(S + "?pageSize=1");
    assertThat(json(page).isArray()).isTrue();
    assertThat(json(page)).hasSize(1);
    String token = page.headers().firstValue("X-Next-Page-Token").orElseThrow();
    HttpResponse<String> next = client.get(S + "?pageSize=1&pageToken=" + token);
    assertThat(json(next)).hasSize(1);
    assertThat(json(next).get(0).get("id").asText())
        .isNotEqualTo(json(page).get(0).get("id").asText());
    assertValidation(client.get(S + "?pageSize=ten"), "int_parsing", "query", "pageSize");

    // create with a chosen id: 409 when taken
    assertThat(client.post(S, "{\"sessionId\":\"chosen\"}").statusCode()).isEqualTo(200);
    assertDetail(client.post(S, "{\"sessionId\":\"chosen\"}"), 409, "already exists");
    assertDetail(client.post(S + "/chosen", "{}"), 409, "already exists");

    // PATCH: the session back; validation errors in ADK's shape
    HttpResponse<String> patched = client.call("PATCH", S + "/" + id, "{\"stateDelta\":{\"k\":2}}");
    assertThat(patched.statusCode()).isEqualTo(200);
    assertSessionShape(json(patched));
    assertEventShape(json(patched).get("events").get(0));
    assertValidation(client.call("PATCH", S + "/" + id, "{}"), "missing", "body", "stateDelta");
    assertValidation(
        client.call("PATCH", S + "/" + id, "{\"stateDelta\":3}"),
        "dict_type",
        "body",
        "stateDelta");
    assertDetail(client.call("PATCH", S + "/missing", "{\"stateDelta\":{}}"), 404, "missing");

    // bodies: malformed, not an object
    assertValidation(client.post(S, "{\"state\":"), "json_invalid", "body");
    assertValidation(client.post(S, "[1]"), "model_attributes_type", "body");
    assertValidation(client.post(S, "{\"state\":[]}"), "dict_type", "body", "state");

    // DELETE: 200 with null, and again (idempotent)
    for (int i = 0; i < 2; i++) {
      HttpResponse<String> deleted = client.call("DELETE", S + "/" + id, null);
      assertThat(deleted.statusCode()).isEqualTo(200);
      assertThat(deleted.body()).isEqualTo("null");
    }
    assertThat(client.get(S + "/" + id).statusCode()).isEqualTo(404);
  }

  @Test
  void run_eventsInAdksShape_andValidation() {
    String id = newSession();
    HttpResponse<String> r = client.post("/run", runBody("app", "u", id, "look it up", false));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode events = json(r);
    assertThat(events.isArray()).isTrue();
    assertThat(events).hasSize(3); // the call, the tool's response, the answer
    events.forEach(WireContractTest::assertEventShape);
    JsonNode call = events.get(0);
    assertThat(call.get("content").get("parts").get(0).has("functionCall")).isTrue();
    assertThat(call.get("longRunningToolIds").isArray()).isTrue();
    assertThat(call.get("longRunningToolIds")).isEmpty();
    assertThat(events.get(2).has("longRunningToolIds")).isFalse(); // none on a text answer

    assertValidation(
        client.post("/run", "{\"userId\":\"u\",\"sessionId\":\"s\",\"newMessage\":{}}"),
        "missing",
        "body",
        "appName");
    assertValidation(
        client.post("/run", "{\"appName\":\"app\",\"userId\":\"u\",\"sessionId\":\"s\"}"),
        "missing",
        "body",
        "newMessage");
    assertValidation(client.post("/run", "not json"), "json_invalid", "body");
    assertValidation(client.post("/run", "3"), "model_attributes_type", "body");
    assertDetail(client.post("/run", runBody("app", "u", "missing", "hi", false)), 404, "missing");
    assertDetail(client.post("/run_sse", runBody("app", "u", "missing", "hi", true)), 404, "");

    HttpResponse<String> sse = client.post("/run_sse", runBody("app", "u", id, "hi", false));
    assertThat(sse.statusCode()).isEqualTo(200);
    assertThat(sse.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
    assertThat(sse.body()).startsWith("data: {");
  }

  /**
   * ADK's resume by {@code invocationId} without {@code newMessage}: a confirmation whose answer
   * the application stored in the session (through its session service) resumes by the invocation's
   * id alone; before that answer it is refused, after it a second resume is ADK's no-op ({@code
   * []}).
   */
  @Test
  void run_byInvocationIdWithoutNewMessage_resumesAPausedInvocation() {
    String id = json(client.post("/apps/hitl/users/u/sessions", null)).get("id").asText();
    JsonNode paused = json(client.post("/run", runBody("hitl", "u", id, "pay 5", false)));
    assertThat(paused).hasSize(3); // the call, the tool's answer asking, the request
    String invocation = paused.get(2).get("invocationId").asText();
    JsonNode request = paused.get(2).get("content").get("parts").get(0).get("functionCall");
    assertThat(request.get("name").asText()).isEqualTo("adk_request_confirmation");
    String resume =
        "{\"appName\":\"hitl\",\"userId\":\"u\",\"sessionId\":\""
            + id
            + "\",\"invocationId\":\""
            + invocation
            + "\"}";

    assertDetail(client.post("/run", resume), 400, "still waits for answers to its calls");
    assertDetail(
        client.post("/run", resume.replace(invocation, "e-unknown")),
        400,
        "Invocation 'e-unknown' to resume has no event in session '" + id + "'");
    assertThat(TRANSFERS).hasValue(0);

    // The person's answer, stored by the application under the invocation's id.
    dev.adk4j.sessions.Session session = store.getSession("hitl", "u", id).blockingGet();
    com.google.genai.types.Content yes =
        com.google.genai.types.Content.builder()
            .role("user")
            .parts(
                com.google.genai.types.Part.builder()
                    .functionResponse(
                        com.google.genai.types.FunctionResponse.builder()
                            .id(request.get("id").asText())
                            .name("adk_request_confirmation")
                            .response(Map.of("confirmed", true))
                            .build())
                    .build())
            .build();
    store
        .appendEvent(
            session,
            dev.adk4j.events.Event.builder()
                .invocationId(invocation)
                .author("user")
                .content(yes)
                .build())
        .blockingGet();

    HttpResponse<String> r = client.post("/run", resume);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode resumed = json(r);
    assertThat(resumed).hasSize(2); // the transfer's response, the answer
    resumed.forEach(WireContractTest::assertEventShape);
    assertThat(resumed.get(1).get("content").get("parts").get(0).get("text").asText())
        .isEqualTo("sent");
    resumed.forEach(e -> assertThat(e.get("invocationId").asText()).isEqualTo(invocation));
    assertThat(TRANSFERS).hasValue(1);

    HttpResponse<String> again = client.post("/run_sse", resume);
    assertThat(again.statusCode()).isEqualTo(200);
    assertThat(again.body()).doesNotContain("data:"); // nothing to resume: no event
    assertThat(json(client.post("/run", resume))).isEmpty();
    assertThat(TRANSFERS).hasValue(1);
  }

  @Test
  void base64_inBothAlphabets_isAccepted() {
    byte[] bytes = new byte[] {(byte) 0xfb, (byte) 0xff, (byte) 0xbf, 0x01, 0x02};
    String urlSafe = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    String standard = Base64.getEncoder().encodeToString(bytes);
    assertThat(urlSafe).contains("-").contains("_"); // the alphabets differ for these bytes
    for (String data : List.of(urlSafe, standard)) {
      String id = newSession();
      String body =
          "{\"appName\":\"app\",\"userId\":\"u\",\"sessionId\":\""
              + id
              + "\",\"newMessage\":{\"role\":\"user\",\"parts\":[{\"text\":\"hi\"},"
              + "{\"inlineData\":{\"mimeType\":\"application/octet-stream\",\"data\":\""
              + data
              + "\"}}]}}";
      HttpResponse<String> r = client.post("/run", body);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      byte[] stored =
          store
              .getSession("app", "u", id)
              .blockingGet()
              .events()
              .get(0)
              .content()
              .orElseThrow()
              .parts()
              .orElseThrow()
              .get(1)
              .inlineData()
              .orElseThrow()
              .data()
              .orElseThrow();
      assertThat(stored).isEqualTo(bytes);
    }
  }

  @Test
  void artifacts_saveDescribeLoadDelete() {
    String id = newSession();
    String base = S + "/" + id + "/artifacts";
    String data = Base64.getUrlEncoder().encodeToString("hello?>".getBytes(StandardCharsets.UTF_8));
    for (int version = 0; version < 2; version++) {
      HttpResponse<String> saved =
          client.post(
              base,
              "{\"filename\":\"a.txt\",\"artifact\":{\"inlineData\":{\"mimeType\":\"text/plain\","
                  + "\"data\":\""
                  + data
                  + "\"}}}");
      assertThat(saved.statusCode()).as(saved.body()).isEqualTo(200);
      JsonNode meta = json(saved);
      assertThat(meta.get("version").asInt()).isEqualTo(version);
      assertThat(meta.get("canonicalUri").asText()).endsWith("/a.txt/versions/" + version);
      assertThat(meta.get("customMetadata").isObject()).isTrue();
      assertThat(meta.get("mimeType").asText()).isEqualTo("text/plain");
    }
    assertThat(json(client.get(base))).hasSize(1);
    assertThat(json(client.get(base + "/a.txt/versions"))).hasSize(2);
    JsonNode all = json(client.get(base + "/a.txt/versions/metadata"));
    assertThat(all).hasSize(2);
    assertThat(all.get(1).get("version").asInt()).isEqualTo(1);
    assertThat(json(client.get(base + "/a.txt/versions/0/metadata")).get("version").asInt())
        .isZero();
    assertDetail(client.get(base + "/a.txt/versions/9/metadata"), 404, "version 9");
    assertDetail(client.get(base + "/nope.txt"), 404, "nope.txt");
    JsonNode part = json(client.get(base + "/a.txt"));
    assertThat(Base64.getDecoder().decode(part.get("inlineData").get("data").asText().trim()))
        .isEqualTo("hello?>".getBytes(StandardCharsets.UTF_8));
    assertValidation(client.post(base, "{\"artifact\":{}}"), "missing", "body", "filename");
    assertValidation(
        client.post(base, "{\"filename\":\"b\",\"artifact\":[]}"),
        "model_attributes_type",
        "body",
        "artifact");
    assertValidation(client.get(base + "/a.txt/versions/x"), "int_parsing", "path");
    for (int i = 0; i < 2; i++) {
      HttpResponse<String> deleted = client.call("DELETE", base + "/a.txt", null);
      assertThat(deleted.statusCode()).isEqualTo(200);
      assertThat(deleted.body()).isEqualTo("null");
    }
    assertThat(json(client.get(base))).isEmpty();
  }

  @Test
  void devEndpoints_builderTraceGraph() {
    HttpResponse<String> builder = client.get("/builder/app/app");
    assertThat(builder.statusCode()).isEqualTo(200);
    assertThat(builder.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
    assertThat(builder.body()).isEmpty();
    HttpResponse<String> save = client.post("/builder/save", "{}");
    assertThat(save.statusCode()).isEqualTo(200);
    assertThat(save.body()).isEqualTo("false");

    assertDetail(client.get("/debug/trace/no-such-event"), 404, "Trace not found");
    assertThat(json(client.get("/debug/trace/session/x"))).isEmpty();

    JsonNode graph = json(client.get("/dev/app/graph"));
    assertThat(graph.get("dotSrc").asText()).startsWith("digraph");
    // the forms under /dev/apps/{app}/ that the newer dev UI (@google/adk-devtools 2) calls
    assertThat(json(client.get("/dev/apps/app/build_graph")).get("root_agent").get("name").asText())
        .isEqualTo("root");
    // the app's drawings by path (the UI renders the root's in an event's Graph tab), or one
    // node's
    assertThat(json(client.get("/dev/apps/app/build_graph_image?dark_mode=false")))
        .hasSize(1)
        .allSatisfy(drawing -> assertThat(drawing.get("dotSrc").asText()).startsWith("digraph"));
    assertThat(json(client.get("/dev/apps/app/build_graph_image")).get("app")).isNotNull();
    assertThat(
            json(client.get("/dev/apps/app/build_graph_image?dark_mode=true&node=root"))
                .get("dotSrc")
                .asText())
        .startsWith("digraph");
    assertThat(client.get("/dev/apps/app/builder?ts=1").body()).isEmpty();
    assertThat(client.post("/dev/apps/app/builder/save?tmp=true", "{}").body()).isEqualTo("false");
    assertThat(client.post("/dev/apps/app/builder/cancel", "{}").body()).isEqualTo("false");
    assertThat(json(client.get("/dev/apps/app/eval_sets"))).isEmpty();
    JsonNode build = json(client.get("/dev/build_graph/app"));
    assertThat(build.get("name").asText()).isEqualTo("app");
    assertThat(build.get("root_agent").get("name").asText()).isEqualTo("root");

    assertDetail(client.get("/no/such/path"), 404, "no endpoint");
    assertDetail(client.call("PUT", "/list-apps", "{}"), 405, "PUT");
  }
}
