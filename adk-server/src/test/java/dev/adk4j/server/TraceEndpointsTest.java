package dev.adk4j.server;

import static dev.adk4j.server.ServerClient.json;
import static dev.adk4j.server.ServerClient.runBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dev UI's trace views from the spans the Runner records ({@code --traces}): a session's spans
 * in ADK's shape, linked to its invocations and model events, and an event's model call.
 */
class TraceEndpointsTest {
  static final String MODEL = "scripted-model";
  static AdkServer server;
  static ServerClient client;

  /** The tool of the scripted agent. */
  public static Map<String, Object> lookup(@Schema(name = "q") String q) {
    return Map.of("found", q);
  }

  @BeforeAll
  static void start() {
    LlmAgent agent =
        LlmAgent.builder()
            .name("root")
            .description("answers")
            .instruction("Answer.")
            .model(
                ScriptedLlm.builder()
                    .model(MODEL)
                    .otherwise(
                        req ->
                            ScriptedLlm.functionResponses(req).isEmpty()
                                ? ScriptedLlm.functionCallResponse("lookup", Map.of("q", "x"))
                                : ScriptedLlm.textResponse("Found x."))
                    .build())
            .tools(FunctionTool.create(TraceEndpointsTest.class, "lookup"))
            .build();
    server = AdkServer.builder().app("app", agent).options("--traces").port(0).start();
    client = new ServerClient(server);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static String session() {
    return json(client.post("/apps/app/users/u/sessions", null)).get("id").asText();
  }

  @Test
  void sessionTrace_hasTheInvocationsSpansInAdksShape_linkedToTheirEvents() throws Exception {
    String id = session();
    JsonNode events = json(client.post("/run", runBody("app", "u", id, "look it up", false)));
    assertThat(events).hasSize(3); // the call, the tool's response, the answer
    String invocation = events.get(0).get("invocationId").asText();

    HttpResponse<String> r = client.get("/debug/trace/session/" + id);
    assertThat(r.statusCode()).isEqualTo(200);
    JsonNode spans = json(r);
    List<String> names = new ArrayList<>();
    Map<String, JsonNode> byId = new HashMap<>();
    for (JsonNode s : spans) {
      names.add(s.get("name").asText());
      byId.put(s.get("span_id").asText(), s);
      assertThat(s.get("trace_id").asText()).isEqualTo(spans.get(0).get("trace_id").asText());
      assertThat(s.get("start_time").asLong()).isLessThanOrEqualTo(s.get("end_time").asLong());
      assertThat(s.get("attributes").get("gcp.vertex.agent.invocation_id").asText())
          .isEqualTo(invocation);
    }
    assertThat(names)
        .containsExactly(
            "invocation", "invoke_agent root", "call_llm", "execute_tool lookup", "call_llm");
    // the tree: the invocation is the root, the agent's steps are its children
    assertThat(spans.get(0).get("parent_span_id").isNull()).isTrue();
    for (int i = 1; i < spans.size(); i++) {
      assertThat(byId).containsKey(spans.get(i).get("parent_span_id").asText());
    }
    // each model call names the event it produced, with the request it sent and the response
    // it got, as JSON strings (ADK's attributes, which the dev UI parses)
    JsonNode firstCall = spans.get(2).get("attributes");
    assertThat(firstCall.get("gcp.vertex.agent.event_id").asText())
        .isEqualTo(events.get(0).get("id").asText());
    assertThat(firstCall.get("gcp.vertex.agent.session_id").asText()).isEqualTo(id);
    JsonNode request =
        ServerClient.JSON.readTree(firstCall.get("gcp.vertex.agent.llm_request").asText());
    assertThat(request.get("model").asText()).isEqualTo(MODEL);
    assertThat(request.at("/config/systemInstruction").asText()).isEqualTo("Answer.");
    assertThat(request.at("/config/tools/0/functionDeclarations/0/name").asText())
        .isEqualTo("lookup");
    assertThat(request.get("contents")).hasSize(1);
    assertThat(request.at("/contents/0/role").asText()).isEqualTo("user");
    assertThat(request.at("/contents/0/parts/0/text").asText()).isEqualTo("look it up");
    JsonNode response =
        ServerClient.JSON.readTree(firstCall.get("gcp.vertex.agent.llm_response").asText());
    assertThat(response.at("/content/parts/0/functionCall/name").asText()).isEqualTo("lookup");
    assertThat(response.at("/content/parts/0/functionCall/args/q").asText()).isEqualTo("x");

    JsonNode secondCall = spans.get(4).get("attributes");
    assertThat(secondCall.get("gcp.vertex.agent.event_id").asText())
        .isEqualTo(events.get(2).get("id").asText());
    JsonNode secondRequest =
        ServerClient.JSON.readTree(secondCall.get("gcp.vertex.agent.llm_request").asText());
    // the history: the question, the model's call, the tool's response
    assertThat(secondRequest.get("contents")).hasSize(3);
    assertThat(secondRequest.at("/contents/2/parts/0/functionResponse/response/found").asText())
        .isEqualTo("x");
    assertThat(
            ServerClient.JSON
                .readTree(secondCall.get("gcp.vertex.agent.llm_response").asText())
                .at("/content/parts/0/text")
                .asText())
        .isEqualTo("Found x.");

    // an event's trace: the attributes of the model call that produced it
    JsonNode trace = json(client.get("/debug/trace/" + events.get(2).get("id").asText()));
    assertThat(trace.get("gen_ai.operation.name").asText()).isEqualTo("call_llm");
    assertThat(trace.get("gcp.vertex.agent.event_id").asText())
        .isEqualTo(events.get(2).get("id").asText());
    assertThat(trace.get("gcp.vertex.agent.invocation_id").asText()).isEqualTo(invocation);
    assertThat(trace.get("gcp.vertex.agent.llm_request").asText())
        .isEqualTo(secondCall.get("gcp.vertex.agent.llm_request").asText());
    assertThat(trace.get("gcp.vertex.agent.llm_response").asText()).contains("Found x.");
    assertThat(trace.get("span_id").asText()).isEqualTo(spans.get(4).get("span_id").asText());
    assertThat(trace.get("trace_id").asText()).isEqualTo(spans.get(0).get("trace_id").asText());

    // the tool's response event came from no model call; other sessions have no spans
    HttpResponse<String> none = client.get("/debug/trace/" + events.get(1).get("id").asText());
    assertThat(none.statusCode()).isEqualTo(404);
    assertThat(ServerClient.detail(none)).isEqualTo("Trace not found");
    assertThat(json(client.get("/debug/trace/session/" + session()))).isEmpty();
    assertThat(json(client.get("/dev/apps/app/debug/trace/session/" + id))).isEqualTo(spans);
  }

  @Test
  void sseRun_isTracedToo() throws Exception {
    String id = session();
    HttpResponse<String> r = client.post("/run_sse", runBody("app", "u", id, "again", false));
    assertThat(r.statusCode()).isEqualTo(200);
    List<String> eventIds = new ArrayList<>();
    for (String line : r.body().split("\n")) {
      if (line.startsWith("data: ")) {
        eventIds.add(ServerClient.JSON.readTree(line.substring(6)).get("id").asText());
      }
    }
    assertThat(eventIds).hasSize(3);
    assertThat(json(client.get("/debug/trace/session/" + id))).hasSize(5);
    assertThat(client.get("/debug/trace/" + eventIds.get(2)).statusCode()).isEqualTo(200);
  }
}
