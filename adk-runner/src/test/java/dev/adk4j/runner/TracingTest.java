package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.models.LlmException;
import dev.adk4j.runner.TestBackends.Backend;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.SessionLimits;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.AgentTool;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanId;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * OpenTelemetry tracing through the API, recorded by the SDK into memory: one trace per invocation,
 * a span per agent, model call and tool call with the GenAI attributes, and the state keys each
 * stored event wrote as span events, with their values left out unless asked for.
 */
class TracingTest {

  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  @TempDir static Path dir;
  static TestBackends backends;
  static final AtomicInteger N = new AtomicInteger();

  /** The SDK's exporter contract, keeping every finished span in memory. */
  static final class MemoryExporter implements SpanExporter {
    final List<SpanData> spans = Collections.synchronizedList(new ArrayList<>());

    @Override
    public CompletableResultCode export(Collection<SpanData> batch) {
      spans.addAll(batch);
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
      return CompletableResultCode.ofSuccess();
    }
  }

  static final MemoryExporter exporter = new MemoryExporter();
  static SdkTracerProvider provider;

  @BeforeAll
  static void open() throws Exception {
    backends = new TestBackends(POSTGRES, dir, SessionLimits.defaults());
    provider =
        SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
    GlobalOpenTelemetry.resetForTest();
    GlobalOpenTelemetry.set(
        new OpenTelemetry() {
          @Override
          public TracerProvider getTracerProvider() {
            return provider;
          }

          @Override
          public ContextPropagators getPropagators() {
            return ContextPropagators.noop();
          }
        });
  }

  @AfterAll
  static void close() throws Exception {
    GlobalOpenTelemetry.resetForTest();
    provider.close();
    backends.close();
  }

  @BeforeEach
  @AfterEach
  void clear() {
    exporter.spans.clear();
    System.clearProperty("adk4j.telemetry.stateValues");
    System.clearProperty("adk4j.telemetry.captureContent");
  }

  /** Stores the secret it is given. */
  public static Map<String, Object> keep(String secret, ToolContext context) {
    context.state().put("secret", secret);
    context.state().put("user:kept", 1);
    return Map.of("kept", true);
  }

  static final String SECRET = "s3cr3t-value";

  List<Event> run(Backend backend, LlmAgent agent) {
    BaseSessionService sessions = backends.get(backend);
    String app = "tracing_" + N.incrementAndGet();
    sessions.createSession(app, "u", null, "s").blockingGet();
    return new Runner(agent, app, null, sessions)
        .runAsync("u", "s", Contents.user("go"), RunConfig.builder().build())
        .toList()
        .blockingGet();
  }

  static LlmAgent keeper() {
    return LlmAgent.builder()
        .name("keeper")
        .description("Keeps things.")
        .model(
            ScriptedLlm.builder()
                .model("scripted-model")
                .thenFunctionCall("keep", Map.of("secret", SECRET))
                .thenText("kept")
                .build())
        .tools(FunctionTool.create(TracingTest.class, "keep"))
        .build();
  }

  static SpanData one(String name) {
    List<SpanData> found = exporter.spans.stream().filter(s -> s.getName().equals(name)).toList();
    assertThat(found).as(name).hasSize(1);
    return found.get(0);
  }

  static String attr(SpanData s, String key) {
    return s.getAttributes().get(AttributeKey.stringKey(key));
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void oneTracePerInvocation_spansForAgentModelAndTool_stateKeysWithoutValues(Backend backend) {
    run(backend, keeper());

    SpanData invocation = one("invocation");
    SpanData agent = one("invoke_agent keeper");
    SpanData tool = one("execute_tool keep");
    List<SpanData> models =
        exporter.spans.stream().filter(s -> s.getName().equals("call_llm")).toList();
    assertThat(models).hasSize(2);

    assertThat(invocation.getParentSpanId()).isEqualTo(SpanId.getInvalid());
    assertThat(agent.getParentSpanId()).isEqualTo(invocation.getSpanId());
    assertThat(tool.getParentSpanId()).isEqualTo(agent.getSpanId());
    assertThat(models)
        .allSatisfy(m -> assertThat(m.getParentSpanId()).isEqualTo(agent.getSpanId()));
    assertThat(exporter.spans)
        .extracting(SpanData::getTraceId)
        .containsOnly(invocation.getTraceId());

    assertThat(attr(invocation, "gen_ai.conversation.id")).isEqualTo("s");
    assertThat(attr(agent, "gen_ai.operation.name")).isEqualTo("invoke_agent");
    assertThat(attr(agent, "gen_ai.agent.name")).isEqualTo("keeper");
    assertThat(attr(agent, "gen_ai.agent.description")).isEqualTo("Keeps things.");
    assertThat(attr(models.get(0), "gen_ai.operation.name")).isEqualTo("call_llm");
    assertThat(attr(models.get(0), "gen_ai.request.model")).isEqualTo("scripted-model");
    assertThat(attr(tool, "gen_ai.operation.name")).isEqualTo("execute_tool");
    assertThat(attr(tool, "gen_ai.tool.name")).isEqualTo("keep");
    assertThat(attr(tool, "gen_ai.tool_call.id")).startsWith("adk-");
    assertThat(attr(invocation, "adk4j.invocation_id"))
        .isEqualTo(attr(agent, "adk4j.invocation_id"))
        .startsWith("e-");

    List<EventData> stateEvents =
        agent.getEvents().stream().filter(e -> e.getName().equals("adk4j.state_delta")).toList();
    assertThat(stateEvents).hasSize(1);
    assertThat(
            stateEvents.get(0).getAttributes().get(AttributeKey.stringArrayKey("adk4j.state.keys")))
        .containsExactly("secret", "user:kept");
    assertThat(exporter.spans.toString()).doesNotContain(SECRET);
    assertThat(exporter.spans)
        .allSatisfy(s -> assertThat(s.getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR));
  }

  @Test
  void theSubscribersCurrentSpan_isTheInvocationsParent() {
    io.opentelemetry.api.trace.Span outer =
        GlobalOpenTelemetry.getTracer("test").spanBuilder("request").startSpan();
    try (io.opentelemetry.context.Scope scope = outer.makeCurrent()) {
      run(Backend.MEMORY, keeper());
    } finally {
      outer.end();
    }
    assertThat(one("invocation").getParentSpanId()).isEqualTo(outer.getSpanContext().getSpanId());
    assertThat(one("invocation").getTraceId()).isEqualTo(outer.getSpanContext().getTraceId());
  }

  @Test
  void modelCalls_nameTheirEvents_andCarryRequestAndResponseOnlyWhenAskedFor() throws Exception {
    List<Event> events = run(Backend.MEMORY, keeper());
    List<SpanData> models =
        exporter.spans.stream().filter(s -> s.getName().equals("call_llm")).toList();
    assertThat(models).hasSize(2);
    // the call's event, then the tool's response, then the answer's event
    assertThat(attr(models.get(0), "gcp.vertex.agent.event_id")).isEqualTo(events.get(0).id());
    assertThat(attr(models.get(1), "gcp.vertex.agent.event_id")).isEqualTo(events.get(2).id());
    assertThat(attr(models.get(0), "gcp.vertex.agent.llm_request")).isNull();
    assertThat(attr(models.get(0), "gcp.vertex.agent.llm_response")).isNull();

    exporter.spans.clear();
    System.setProperty("adk4j.telemetry.captureContent", "true");
    events = run(Backend.MEMORY, keeper());
    models = exporter.spans.stream().filter(s -> s.getName().equals("call_llm")).toList();
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    com.fasterxml.jackson.databind.JsonNode request =
        json.readTree(attr(models.get(0), "gcp.vertex.agent.llm_request"));
    assertThat(request.get("model").asText()).isEqualTo("scripted-model");
    assertThat(request.at("/contents/0/parts/0/text").asText()).isEqualTo("go");
    assertThat(request.at("/config/tools/0/functionDeclarations/0/name").asText())
        .isEqualTo("keep");
    assertThat(
            json.readTree(attr(models.get(0), "gcp.vertex.agent.llm_response"))
                .at("/content/parts/0/functionCall/args/secret")
                .asText())
        .isEqualTo(SECRET);
    assertThat(
            json.readTree(attr(models.get(1), "gcp.vertex.agent.llm_response"))
                .at("/content/parts/0/text")
                .asText())
        .isEqualTo("kept");
    assertThat(attr(models.get(1), "gcp.vertex.agent.event_id")).isEqualTo(events.get(2).id());
  }

  @Test
  void stateValues_areRecordedOnlyWhenAskedFor() {
    System.setProperty("adk4j.telemetry.stateValues", "true");
    run(Backend.MEMORY, keeper());

    EventData state =
        one("invoke_agent keeper").getEvents().stream()
            .filter(e -> e.getName().equals("adk4j.state_delta"))
            .findFirst()
            .orElseThrow();
    assertThat(state.getAttributes().get(AttributeKey.stringKey("adk4j.state.values")))
        .contains(SECRET);
  }

  @Test
  void failures_markTheirSpans_andAnAgentToolsChildIsInTheSameTrace() {
    LlmAgent child =
        LlmAgent.builder()
            .name("child")
            .model(ScriptedLlm.builder().thenText("child says hi").build())
            .build();
    LlmAgent root =
        LlmAgent.builder()
            .name("root")
            .model(
                ScriptedLlm.builder()
                    .thenFunctionCall("child", Map.of("request", "hi"))
                    .thenError(new LlmException("scripted", 500, "model down", null))
                    .build())
            .tools(AgentTool.create(child))
            .build();

    BaseSessionService sessions = backends.get(Backend.MEMORY);
    sessions.createSession("tracing_fail", "u", null, "s").blockingGet();
    new Runner(root, "tracing_fail", null, sessions)
        .runAsync("u", "s", Contents.user("go"), RunConfig.builder().build())
        .onErrorComplete()
        .blockingSubscribe();

    SpanData invocation = one("invocation");
    SpanData tool = one("execute_tool child");
    SpanData childAgent = one("invoke_agent child");
    assertThat(childAgent.getParentSpanId()).isEqualTo(tool.getSpanId());
    assertThat(childAgent.getTraceId()).isEqualTo(invocation.getTraceId());
    assertThat(invocation.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(one("invoke_agent root").getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    List<SpanData> rootModelCalls =
        exporter.spans.stream()
            .filter(
                s -> s.getName().equals("call_llm") && "root".equals(attr(s, "gen_ai.agent.name")))
            .toList();
    assertThat(rootModelCalls).hasSize(2);
    assertThat(rootModelCalls)
        .filteredOn(s -> s.getStatus().getStatusCode() == StatusCode.ERROR)
        .hasSize(1);
  }
}
