package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import com.google.genai.types.Schema;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.agents.SequentialAgent;
import dev.adk4j.events.Event;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.runner.TestBackends.Backend;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionLimits;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.AgentTool;
import dev.adk4j.tools.Annotations;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Maybe;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link AgentTool} through the Runner on every backend: the wrapped agent's state writes reach the
 * caller's function-response event exactly once (none of its own events are stored in the caller's
 * session), its {@code temp:} writes stay in the child, its answer is the function response, and
 * the tool can be used any number of times in one session.
 */
class AgentToolTest {

  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  @TempDir static Path dir;
  static TestBackends backends;
  static final AtomicInteger N = new AtomicInteger();

  @BeforeAll
  static void open() throws Exception {
    backends = new TestBackends(POSTGRES, dir, SessionLimits.defaults());
  }

  @AfterAll
  static void close() throws Exception {
    backends.close();
  }

  // ---- the wrapped agent: a researcher that notes the fact it was asked about ----

  /** The researcher's tool: writes one key of each scope, a temp: key and an increment. */
  @Annotations.Schema(name = "note", description = "Notes a fact.")
  public static Map<String, Object> note(
      @Annotations.Schema(name = "fact") String fact, ToolContext context) {
    context.state().put("fact", fact);
    context.state().put("user:last_fact", fact);
    context.state().increment("app:notes", 1);
    context.state().put("temp:child_scratch", "scribbles about " + fact);
    return Map.of("noted", fact);
  }

  /** A researcher model: notes the request with its tool, then answers "Found: <request>". */
  static ScriptedLlm researcherModel() {
    return ScriptedLlm.answering(
        request ->
            lastIsFunctionResponse(request)
                ? ScriptedLlm.textResponse("Found: " + ScriptedLlm.userText(request))
                : ScriptedLlm.functionCallResponse(
                    "note", Map.of("fact", ScriptedLlm.userText(request))));
  }

  static LlmAgent.Builder researcher(ScriptedLlm model) {
    return LlmAgent.builder()
        .name("researcher")
        .description("Looks facts up.")
        .model(model)
        .instruction("Research. Caller's note: {temp:caller_note?}")
        .outputKey("research")
        .tools(FunctionTool.create(AgentToolTest.class, "note"));
  }

  /** A caller model: asks the researcher about the user's text, then reports its answer. */
  static ScriptedLlm callerModel() {
    return ScriptedLlm.answering(
        request ->
            lastIsFunctionResponse(request)
                ? ScriptedLlm.textResponse(
                    "Reported: " + lastFunctionResponse(request).response().orElse(Map.of()))
                : ScriptedLlm.functionCallResponse(
                    "researcher", Map.of("request", ScriptedLlm.userText(request))));
  }

  static boolean lastIsFunctionResponse(LlmRequest request) {
    List<Content> contents = request.contents();
    if (contents.isEmpty()) {
      return false;
    }
    return contents.get(contents.size() - 1).parts().orElse(List.of()).stream()
        .anyMatch(p -> p.functionResponse().isPresent());
  }

  static FunctionResponse lastFunctionResponse(LlmRequest request) {
    List<FunctionResponse> all = ScriptedLlm.functionResponses(request);
    return all.get(all.size() - 1);
  }

  // ---- helpers ----

  record Fixture(BaseSessionService sessions, String app, String user, String session) {
    Session stored() {
      return sessions.getSession(app, user, session).blockingGet();
    }

    List<Event> run(Runner runner, String text) {
      return runner
          .runAsync(user, session, Contents.user(text), RunConfig.builder().build())
          .toList()
          .blockingGet();
    }
  }

  static Fixture fixture(Backend backend) {
    BaseSessionService sessions = backends.get(backend);
    String app = "agent_tool_" + N.incrementAndGet();
    Session s = sessions.createSession(app, "u", null, "s").blockingGet();
    return new Fixture(sessions, app, "u", s.id());
  }

  /** The stored events whose delta has {@code key}. */
  static List<Event> writersOf(Session s, String key) {
    return s.events().stream().filter(e -> e.actions().stateDelta().containsKey(key)).toList();
  }

  static Map<String, Object> functionResponse(Event e) {
    List<FunctionResponse> responses = e.functionResponses();
    assertThat(responses).hasSize(1);
    return responses.get(0).response().orElseThrow();
  }

  // ---- tests ----

  @ParameterizedTest
  @EnumSource(Backend.class)
  void childWrites_reachTheFunctionResponseEventOnce_childEventsAreNotStored(Backend backend) {
    Fixture f = fixture(backend);
    ScriptedLlm childModel = researcherModel();
    List<Object> tempSeenByCaller = Collections.synchronizedList(new ArrayList<>());
    LlmAgent boss =
        LlmAgent.builder()
            .name("boss")
            .model(callerModel())
            .tools(AgentTool.create(researcher(childModel).build()))
            .beforeAgentCallback(
                ctx -> {
                  ctx.state().put("temp:caller_note", "be brief");
                  return Maybe.empty();
                })
            .afterToolCallback(
                (tool, args, ctx, response) -> {
                  tempSeenByCaller.add(
                      String.valueOf(ctx.state().get("temp:child_scratch"))
                          + "/"
                          + ctx.state().get("fact"));
                  return Maybe.empty();
                })
            .build();
    Runner runner = new Runner(boss, f.app(), null, f.sessions());

    List<Event> emitted = f.run(runner, "the sky is blue");

    assertThat(emitted).extracting(Event::author).containsOnly("boss");
    Event response = emitted.get(1);
    assertThat(functionResponse(response))
        .containsExactly(Map.entry("result", "Found: the sky is blue"));
    assertThat(response.actions().stateDelta())
        .containsEntry("fact", "the sky is blue")
        .containsEntry("user:last_fact", "the sky is blue")
        .containsEntry("app:notes", 1)
        .containsEntry("research", "Found: the sky is blue")
        .doesNotContainKeys("temp:child_scratch", "temp:caller_note");
    assertThat(emitted.get(2).stringifyContent()).contains("Found: the sky is blue");

    Session stored = f.stored();
    assertThat(stored.events())
        .extracting(Event::author)
        .containsExactly("user", "boss", "boss", "boss");
    for (String key : List.of("fact", "user:last_fact", "app:notes", "research")) {
      assertThat(writersOf(stored, key))
          .as(key)
          .extracting(Event::id)
          .containsExactly(response.id());
    }
    assertThat(stored.state())
        .containsEntry("fact", "the sky is blue")
        .containsEntry("user:last_fact", "the sky is blue")
        .containsEntry("app:notes", 1)
        .containsEntry("research", "Found: the sky is blue")
        .doesNotContainKeys("temp:child_scratch", "temp:caller_note");
    // The child saw the caller's temp: value; the caller saw the child's writes, not its temp:.
    assertThat(ScriptedLlm.instruction(childModel.request(0))).contains("Caller's note: be brief");
    assertThat(ScriptedLlm.userText(childModel.request(0))).isEqualTo("the sky is blue");
    assertThat(tempSeenByCaller).containsExactly("null/the sky is blue");
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void reusedInOneSession_everyCallCounts_andHistoryHasOnlyCallsAndResponses(Backend backend) {
    Fixture f = fixture(backend);
    ScriptedLlm boss =
        ScriptedLlm.builder()
            .thenFunctionCall("researcher", Map.of("request", "a"))
            .thenFunctionCall("researcher", Map.of("request", "b"))
            .thenText("two done")
            .build();
    AgentTool tool = AgentTool.create(researcher(researcherModel()).build());
    Runner runner =
        new Runner(
            LlmAgent.builder().name("boss").model(boss).tools(tool).build(),
            f.app(),
            null,
            f.sessions());

    f.run(runner, "two calls in one turn");
    Runner later =
        new Runner(
            LlmAgent.builder().name("boss").model(callerModel()).tools(tool).build(),
            f.app(),
            null,
            f.sessions());
    for (String fact : List.of("c", "d", "e")) {
      f.run(later, fact);
    }

    Session stored = f.stored();
    assertThat(stored.state())
        .containsEntry("app:notes", 5)
        .containsEntry("fact", "e")
        .containsEntry("research", "Found: e");
    assertThat(writersOf(stored, "app:notes")).hasSize(5);
    assertThat(writersOf(stored, "research")).hasSize(5);
    assertThat(stored.events())
        .extracting(Event::author)
        .containsOnly("user", "boss")
        .hasSize(6 + 3 * 4);
    assertThat(
            stored.events().stream()
                .flatMap(e -> e.functionResponses().stream())
                .map(r -> r.response().orElseThrow().get("result")))
        .containsExactly("Found: a", "Found: b", "Found: c", "Found: d", "Found: e");
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void skipSummarization_endsTheTurnWithTheFunctionResponse(Backend backend) {
    Fixture f = fixture(backend);
    ScriptedLlm boss =
        ScriptedLlm.builder().thenFunctionCall("researcher", Map.of("request", "x")).build();
    Runner runner =
        new Runner(
            LlmAgent.builder()
                .name("boss")
                .model(boss)
                .tools(AgentTool.create(researcher(researcherModel()).build(), true))
                .build(),
            f.app(),
            null,
            f.sessions());

    List<Event> emitted = f.run(runner, "go");

    boss.assertScriptConsumed();
    Event last = emitted.get(emitted.size() - 1);
    assertThat(last.actions().skipSummarization()).contains(true);
    assertThat(last.finalResponse()).isTrue();
    assertThat(functionResponse(last)).containsEntry("result", "Found: x");
    assertThat(f.stored().state()).containsEntry("fact", "x").containsEntry("app:notes", 1);
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void failingChild_givesAnErrorResponse_andNoneOfItsWrites(Backend backend) {
    Fixture f = fixture(backend);
    ScriptedLlm child =
        ScriptedLlm.builder()
            .thenFunctionCall("note", Map.of("fact", "half done"))
            .thenError(new IllegalStateException("child model down"))
            .build();
    ScriptedLlm boss =
        ScriptedLlm.builder()
            .thenFunctionCall("researcher", Map.of("request", "x"))
            .thenText("sorry")
            .build();
    Runner runner =
        new Runner(
            LlmAgent.builder()
                .name("boss")
                .model(boss)
                .tools(AgentTool.create(researcher(child).build()))
                .build(),
            f.app(),
            null,
            f.sessions());

    List<Event> emitted = f.run(runner, "go");

    Map<String, Object> response = functionResponse(emitted.get(1));
    assertThat(response.get("error").toString())
        .contains("Tool 'researcher' failed")
        .contains("child model down");
    assertThat(emitted.get(1).actions().stateDelta()).isEmpty();
    Session stored = f.stored();
    assertThat(stored.state())
        .doesNotContainKeys("fact", "user:last_fact", "app:notes", "research");
    assertThat(stored.events())
        .extracting(Event::author)
        .containsExactly("user", "boss", "boss", "boss");
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void outputSchema_answerIsTheJsonObject_workflowAgentAnswersWithItsLastSubAgent(Backend backend) {
    Fixture f = fixture(backend);
    Schema schema =
        Schema.builder()
            .type("OBJECT")
            .properties(
                Map.of(
                    "city", Schema.builder().type("STRING").build(),
                    "celsius", Schema.builder().type("INTEGER").build()))
            .build();
    LlmAgent forecaster =
        LlmAgent.builder()
            .name("forecaster")
            .model(
                ScriptedLlm.answering(
                    r -> ScriptedLlm.textResponse("{\"city\": \"Paris\", \"celsius\": 21}")))
            .outputSchema(schema)
            .outputKey("forecast")
            .build();
    LlmAgent prep =
        LlmAgent.builder()
            .name("prep")
            .model(ScriptedLlm.answering(r -> ScriptedLlm.textResponse("prepared")))
            .outputKey("temp:prep")
            .build();
    SequentialAgent weather =
        SequentialAgent.builder()
            .name("weather")
            .description("Forecasts.")
            .subAgents(prep, forecaster)
            .build();
    ScriptedLlm boss =
        ScriptedLlm.builder()
            .thenFunctionCall("weather", Map.of("request", "Paris?"))
            .thenText("21 in Paris")
            .build();
    Runner runner =
        new Runner(
            LlmAgent.builder().name("boss").model(boss).tools(AgentTool.create(weather)).build(),
            f.app(),
            null,
            f.sessions());

    List<Event> emitted = f.run(runner, "weather?");

    Event response = emitted.get(1);
    assertThat(functionResponse(response))
        .containsEntry("city", "Paris")
        .containsEntry("celsius", 21);
    assertThat(response.actions().stateDelta())
        .containsEntry("forecast", Map.of("city", "Paris", "celsius", 21))
        .doesNotContainKey("temp:prep");
    assertThat(f.stored().state()).containsKey("forecast").doesNotContainKey("temp:prep");
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void missingRequest_isAnErrorResponseNamingTheArgument(Backend backend) {
    Fixture f = fixture(backend);
    ScriptedLlm child = researcherModel();
    ScriptedLlm boss =
        ScriptedLlm.builder()
            .thenResponse(
                LlmResponse.builder()
                    .content(
                        Content.builder()
                            .role("model")
                            .parts(
                                List.of(
                                    Part.builder()
                                        .functionCall(
                                            ScriptedLlm.functionCall(
                                                "researcher", Map.of("query", 1)))
                                        .build()))
                            .build())
                    .build())
            .thenText("ok")
            .build();
    Runner runner =
        new Runner(
            LlmAgent.builder()
                .name("boss")
                .model(boss)
                .tools(AgentTool.create(researcher(child).build()))
                .build(),
            f.app(),
            null,
            f.sessions());

    List<Event> emitted = f.run(runner, "go");

    assertThat(functionResponse(emitted.get(1)).get("error").toString())
        .contains("'researcher'")
        .contains("'request'");
    assertThat(child.requests()).isEmpty();
  }
}
