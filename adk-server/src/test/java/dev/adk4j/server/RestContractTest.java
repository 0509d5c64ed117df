package dev.adk4j.server;

import static dev.adk4j.server.ServerClient.json;
import static dev.adk4j.server.ServerClient.runBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.artifacts.InMemoryArtifactService;
import dev.adk4j.testing.ScriptedLlm;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The REST contract, through a real HTTP client, against a server on a free port keeping its
 * sessions in a SQLite file.
 */
class RestContractTest {
  @TempDir static Path dir;

  static AdkServer server;
  static ServerClient client;
  static final InMemoryArtifactService artifacts = new InMemoryArtifactService();

  @BeforeAll
  static void start() {
    LlmAgent greeter =
        LlmAgent.builder()
            .name("greeter")
            .description("greets")
            .model(
                ScriptedLlm.answering(
                    req -> ScriptedLlm.textResponse("Hello, " + ScriptedLlm.userText(req) + "!")))
            .instruction("Greet the user.")
            .outputKey("last_greeting")
            .build();
    LlmAgent other =
        LlmAgent.builder()
            .name("other")
            .model(ScriptedLlm.answering(req -> ScriptedLlm.textResponse("ok")))
            .build();
    server =
        AdkServer.builder()
            .app("greeting_app", greeter)
            .app("other_app", other)
            .store("jdbc:sqlite:" + dir.resolve("server.db"))
            .artifactService(artifacts)
            .port(0)
            .start();
    client = new ServerClient(server);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static final String SESSIONS = "/apps/greeting_app/users/alice/sessions";

  private static String newSession(String state) {
    HttpResponse<String> r = client.post(SESSIONS, state);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return json(r).get("id").asText();
  }

  @Test
  void listsAppsAndReportsVersionAndHealth() {
    HttpResponse<String> apps = client.get("/list-apps?relative_path=./");
    assertThat(apps.statusCode()).isEqualTo(200);
    assertThat(apps.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(json(apps)).containsExactly(text("greeting_app"), text("other_app"));

    JsonNode detailed = json(client.get("/list-apps?detailed=true"));
    assertThat(detailed.get("apps").get(0).get("rootAgentName").asText()).isEqualTo("greeter");

    JsonNode version = json(client.get("/version"));
    assertThat(version.get("language").asText()).isEqualTo("java");
    assertThat(version.get("version").asText()).isNotBlank().doesNotContain("${");
    assertThat(version.get("languageVersion").asText())
        .isEqualTo(System.getProperty("java.version"));
    assertThat(version.get("language_version").asText())
        .isEqualTo(System.getProperty("java.version"));

    assertThat(json(client.get("/health")).get("status").asText()).isEqualTo("ok");
  }

  @Test
  void createsListsGetsAndDeletesSessions() {
    HttpResponse<String> created = client.post(SESSIONS, "{\"state\":{\"color\":\"blue\"}}");
    assertThat(created.statusCode()).isEqualTo(200);
    JsonNode s = json(created);
    String id = s.get("id").asText();
    assertThat(s.get("appName").asText()).isEqualTo("greeting_app");
    assertThat(s.get("userId").asText()).isEqualTo("alice");
    assertThat(s.get("state").get("color").asText()).isEqualTo("blue");
    double seconds = s.get("lastUpdateTime").asDouble();
    assertThat(seconds)
        .isBetween(
            System.currentTimeMillis() / 1000.0 - 60, System.currentTimeMillis() / 1000.0 + 60);

    // the UI's create: a null body
    assertThat(client.post(SESSIONS, "null").statusCode()).isEqualTo(200);
    assertThat(client.post(SESSIONS, null).statusCode()).isEqualTo(200);

    // a chosen id: {state} or the state itself
    HttpResponse<String> chosen = client.post(SESSIONS + "/mine", "{\"state\":{\"k\":1}}");
    assertThat(chosen.statusCode()).as(chosen.body()).isEqualTo(200);
    assertThat(json(chosen).get("id").asText()).isEqualTo("mine");
    assertThat(json(chosen).get("state").get("k").asInt()).isEqualTo(1);
    HttpResponse<String> bare = client.post(SESSIONS + "/bare", "{\"a\":\"x\",\"b\":2}");
    assertThat(json(bare).get("state").get("b").asInt()).isEqualTo(2);

    HttpResponse<String> again = client.post(SESSIONS + "/mine", null);
    assertThat(again.statusCode()).isEqualTo(409);
    assertThat(ServerClient.detail(again)).contains("mine").contains("already exists");

    HttpResponse<String> list = client.get(SESSIONS);
    assertThat(list.statusCode()).isEqualTo(200);
    List<String> ids = new ArrayList<>();
    json(list)
        .forEach(
            n -> {
              ids.add(n.get("id").asText());
              assertThat(n.get("events")).isEmpty(); // present and empty, as ADK lists them
            });
    assertThat(ids).contains(id, "mine", "bare");

    HttpResponse<String> paged = client.get(SESSIONS + "?pageSize=1");
    assertThat(json(paged)).hasSize(1); // still an array
    assertThat(paged.headers().firstValue("X-Next-Page-Token")).isPresent();

    JsonNode got = json(client.get(SESSIONS + "/" + id));
    assertThat(got.get("events").isArray()).isTrue();
    assertThat(got.get("state").get("color").asText()).isEqualTo("blue");

    HttpResponse<String> deleted = client.call("DELETE", SESSIONS + "/" + id, null);
    assertThat(deleted.statusCode()).isEqualTo(200);
    assertThat(deleted.body()).isEqualTo("null");
    HttpResponse<String> gone = client.get(SESSIONS + "/" + id);
    assertThat(gone.statusCode()).isEqualTo(404);
    assertThat(ServerClient.detail(gone)).contains(id);
    assertThat(client.call("DELETE", SESSIONS + "/" + id, null).statusCode()).isEqualTo(200);
  }

  @Test
  void unknownAppSessionAndPathAre404WithAMessage() {
    HttpResponse<String> app = client.get("/apps/nope/users/alice/sessions");
    assertThat(app.statusCode()).isEqualTo(404);
    assertThat(ServerClient.detail(app)).contains("app 'nope' not found").contains("greeting_app");

    HttpResponse<String> session = client.get(SESSIONS + "/missing");
    assertThat(session.statusCode()).isEqualTo(404);
    assertThat(ServerClient.detail(session)).contains("session 'missing'").contains("alice");

    HttpResponse<String> run =
        client.post("/run", runBody("greeting_app", "alice", "missing", "hi", false));
    assertThat(run.statusCode()).isEqualTo(404);
    HttpResponse<String> sse =
        client.post("/run_sse", runBody("greeting_app", "alice", "missing", "hi", true));
    assertThat(sse.statusCode()).isEqualTo(404);
    assertThat(client.post("/run", runBody("nope", "alice", "s", "hi", false)).statusCode())
        .isEqualTo(404);

    assertThat(client.get("/no/such/path").statusCode()).isEqualTo(404);
    assertThat(client.call("PUT", "/list-apps", "{}").statusCode()).isEqualTo(405);
  }

  @Test
  void patchRecordsTheDeltaAsAUserEventAndReturnsTheSession() {
    String id = newSession("{\"state\":{\"count\":1}}");
    HttpResponse<String> patched =
        client.call(
            "PATCH", SESSIONS + "/" + id, "{\"stateDelta\":{\"count\":2,\"user:lang\":\"fr\"}}");
    assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
    JsonNode s = json(patched);
    assertThat(s.get("state").get("count").asInt()).isEqualTo(2);
    assertThat(s.get("state").get("user:lang").asText()).isEqualTo("fr");
    JsonNode event = s.get("events").get(s.get("events").size() - 1);
    assertThat(event.get("author").asText()).isEqualTo("user");
    assertThat(event.get("invocationId").asText()).isNotBlank();
    assertThat(event.get("actions").get("stateDelta").get("count").asInt()).isEqualTo(2);
    assertThat(event.get("timestamp").asDouble()).isLessThan(1e11); // seconds, not milliseconds

    // stored: visible to a fresh read
    assertThat(json(client.get(SESSIONS + "/" + id)).get("state").get("count").asInt())
        .isEqualTo(2);

    HttpResponse<String> noDelta = client.call("PATCH", SESSIONS + "/" + id, "{\"state\":{}}");
    assertThat(noDelta.statusCode()).isEqualTo(422);
    assertThat(ServerClient.detail(noDelta)).contains("stateDelta");
    assertThat(client.call("PATCH", SESSIONS + "/nope", "{\"stateDelta\":{}}").statusCode())
        .isEqualTo(404);
  }

  @Test
  void runReturnsTheEventsAndTheStateIsVisibleAfterwards() {
    String id = newSession(null);
    HttpResponse<String> r =
        client.post(
            "/run",
            "{\"appName\":\"greeting_app\",\"userId\":\"alice\",\"sessionId\":\""
                + id
                + "\",\"newMessage\":{\"role\":\"user\",\"parts\":[{\"text\":\"Bob\"}]},"
                + "\"stateDelta\":{\"visitor\":\"Bob\"}}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode events = json(r);
    JsonNode last = events.get(events.size() - 1);
    assertThat(last.get("author").asText()).isEqualTo("greeter");
    assertThat(last.get("content").get("parts").get(0).get("text").asText())
        .isEqualTo("Hello, Bob!");
    assertThat(last.get("timestamp").asDouble()).isLessThan(1e11);
    assertThat(last.has("errorCode")).isFalse(); // nulls omitted

    JsonNode session = json(client.get(SESSIONS + "/" + id));
    assertThat(session.get("state").get("last_greeting").asText()).isEqualTo("Hello, Bob!");
    assertThat(session.get("state").get("visitor").asText()).isEqualTo("Bob");
    assertThat(session.get("events").get(0).get("author").asText()).isEqualTo("user");
  }

  @Test
  void badBodiesAre422NamingTheProblemAndBigOnes413() {
    HttpResponse<String> malformed = client.post("/run", "{\"appName\": ");
    assertThat(malformed.statusCode()).isEqualTo(422);
    assertThat(ServerClient.detail(malformed)).startsWith("malformed JSON at line 1");

    HttpResponse<String> notObject = client.post("/run", "[1,2]");
    assertThat(notObject.statusCode()).isEqualTo(422);
    assertThat(ServerClient.detail(notObject)).contains("must be a JSON object");

    HttpResponse<String> missing =
        client.post("/run", "{\"appName\":\"greeting_app\",\"userId\":\"u\"}");
    assertThat(missing.statusCode()).isEqualTo(422);
    assertThat(ServerClient.detail(missing)).contains("'sessionId' is required");

    HttpResponse<String> noMessage =
        client.post("/run", "{\"appName\":\"greeting_app\",\"userId\":\"u\",\"sessionId\":\"s\"}");
    assertThat(ServerClient.detail(noMessage)).contains("'newMessage' is required");

    HttpResponse<String> badState = client.post(SESSIONS, "{\"state\": 3}");
    assertThat(badState.statusCode()).isEqualTo(422);
    assertThat(ServerClient.detail(badState)).contains("'state' must be a JSON object");

    String big = "{\"state\":{\"x\":\"" + "a".repeat(AdkServer.DEFAULT_MAX_BODY_BYTES) + "\"}}";
    HttpResponse<String> tooBig = client.post(SESSIONS, big);
    assertThat(tooBig.statusCode()).isEqualTo(413);
    assertThat(ServerClient.detail(tooBig)).contains("limit");
  }

  @Test
  void aFileOver4MiB_isUploadedAndStored() {
    String id = newSession(null);
    byte[] file = new byte[5 << 20];
    new java.util.Random(7).nextBytes(file);
    String body =
        "{\"appName\":\"greeting_app\",\"userId\":\"alice\",\"sessionId\":\""
            + id
            + "\",\"newMessage\":{\"role\":\"user\",\"parts\":[{\"text\":\"Bob\"},"
            + "{\"inlineData\":{\"mimeType\":\"application/pdf\",\"data\":\""
            + java.util.Base64.getEncoder().encodeToString(file)
            + "\"}}]}}";
    HttpResponse<String> r = client.post("/run", body);
    assertThat(r.statusCode())
        .as(r.body().substring(0, Math.min(300, r.body().length())))
        .isEqualTo(200);
    JsonNode stored = json(client.get(SESSIONS + "/" + id)).get("events").get(0);
    String data = stored.get("content").get("parts").get(1).get("inlineData").get("data").asText();
    assertThat(java.util.Base64.getDecoder().decode(data)).isEqualTo(file);
  }

  @Test
  void servesArtifactsByNameAndVersion() {
    String id = newSession(null);
    artifacts
        .saveArtifact("greeting_app", "alice", id, "notes.txt", Part.fromText("v0"))
        .blockingGet();
    artifacts
        .saveArtifact("greeting_app", "alice", id, "notes.txt", Part.fromText("v1"))
        .blockingGet();
    String base = SESSIONS + "/" + id + "/artifacts";

    assertThat(json(client.get(base))).containsExactly(text("notes.txt"));
    assertThat(json(client.get(base + "/notes.txt")).get("text").asText()).isEqualTo("v1");
    assertThat(json(client.get(base + "/notes.txt?version=0")).get("text").asText())
        .isEqualTo("v0");
    assertThat(json(client.get(base + "/notes.txt/versions/0")).get("text").asText())
        .isEqualTo("v0");
    assertThat(json(client.get(base + "/notes.txt/versions"))).hasSize(2);
    assertThat(client.get(base + "/notes.txt/versions/7").statusCode()).isEqualTo(404);
    assertThat(client.get(base + "/other.txt").statusCode()).isEqualTo(404);
    assertThat(client.get(base + "/notes.txt/versions/x").statusCode()).isEqualTo(422);
    assertThat(client.call("DELETE", base + "/notes.txt", null).statusCode()).isEqualTo(200);
    assertThat(json(client.get(base))).isEmpty();
    assertThat(client.get(SESSIONS + "/nope/artifacts").statusCode()).isEqualTo(404);
  }

  @Test
  void devPathsAnswerSoTheUiDegradesQuietly() {
    String id = newSession(null);
    JsonNode events = json(client.post("/run", runBody("greeting_app", "alice", id, "x", false)));
    String eventId = events.get(0).get("id").asText();

    for (String path :
        List.of(
            "/debug/trace/session/" + id,
            "/dev/apps/greeting_app/debug/trace/session/" + id,
            "/apps/greeting_app/eval_sets",
            "/apps/greeting_app/eval_results",
            "/dev/apps/greeting_app/eval_sets")) {
      HttpResponse<String> r = client.get(path);
      assertThat(r.statusCode()).as(path).isEqualTo(200);
      assertThat(json(r).isArray()).as(path).isTrue();
      assertThat(json(r)).as(path).isEmpty();
    }
    for (String path :
        List.of(
            SESSIONS + "/" + id + "/events/" + eventId + "/graph",
            "/dev/apps/greeting_app/users/alice/sessions/" + id + "/events/" + eventId + "/graph",
            "/dev/build_graph_image/greeting_app?node=greeter")) {
      HttpResponse<String> r = client.get(path);
      assertThat(r.statusCode()).as(path).isEqualTo(200);
      assertThat(json(r).get("dotSrc").asText())
          .as(path)
          .startsWith("digraph")
          .contains("\"greeter\"");
    }
    assertThat(client.get(SESSIONS + "/" + id + "/events/nope/graph").statusCode()).isEqualTo(404);
    assertThat(client.get("/dev/apps/nope/debug/trace/x").statusCode()).isEqualTo(404);
    assertThat(
            json(client.get("/dev/build_graph/greeting_app"))
                .get("root_agent")
                .get("name")
                .asText())
        .isEqualTo("greeter");
    // ADK's older creation of an eval set by id answers null
    assertThat(client.post("/apps/greeting_app/eval_sets/x", "{}").body()).isEqualTo("null");
    HttpResponse<String> builderSave = client.post("/builder/save", "{}");
    assertThat(builderSave.statusCode()).isEqualTo(200);
    assertThat(builderSave.body()).isEqualTo("false");
    HttpResponse<String> builderApp = client.get("/builder/app/greeting_app");
    assertThat(builderApp.statusCode()).isEqualTo(200);
    assertThat(builderApp.body()).isEmpty();
  }

  @Test
  void servesTheDevUiWithItsRuntimeConfigAndFallback() {
    HttpResponse<String> root = client.get("/");
    assertThat(root.statusCode()).isEqualTo(302);
    assertThat(root.headers().firstValue("Location")).hasValue("/dev-ui/");

    HttpResponse<String> index = client.get("/dev-ui/");
    assertThat(index.statusCode()).isEqualTo(200);
    assertThat(index.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
    assertThat(index.body()).contains("<app-root");

    JsonNode config = json(client.get("/dev-ui/assets/config/runtime-config.json"));
    assertThat(config.get("backendUrl").asText()).isEmpty();

    HttpResponse<String> route = client.get("/dev-ui/some/client/route");
    assertThat(route.statusCode()).isEqualTo(200);
    assertThat(route.body()).isEqualTo(index.body());

    java.util.regex.Matcher main =
        java.util.regex.Pattern.compile("main-[A-Z0-9]+\\.js").matcher(index.body());
    assertThat(main.find()).as("index.html names its main script").isTrue();
    String script = main.group();
    HttpResponse<String> js = client.get("/dev-ui/" + script);
    assertThat(js.statusCode()).as(script).isEqualTo(200);
    assertThat(js.headers().firstValue("Content-Type").orElse("")).startsWith("text/javascript");

    assertThat(client.get("/dev-ui/missing-file.js").statusCode()).isEqualTo(404);
    assertThat(client.get("/dev-ui/%2E%2E/%2E%2E/server.properties").statusCode()).isEqualTo(404);
  }

  private static JsonNode text(String s) {
    return ServerClient.JSON.getNodeFactory().textNode(s);
  }
}
