package dev.adk4j.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * How a tool call that goes wrong reaches the model, through an agent run: an exception in a tool
 * (thrown, or as its Single's error; a hand-written tool or a {@link FunctionTool}), an exception
 * in a tool callback, a tool name the agent lacks, and an argument that cannot be converted each
 * become one function response {@code {"error": message}} naming the tool and what went wrong; the
 * run goes on, the model sees the error in its next request, and the writes of a call that threw
 * are discarded. Only public API is used.
 */
class ToolFailureResponseTest {

  private static final String APP = "tool_failures_app";
  private static final String USER = "tool_failures_user";

  private final InMemorySessionService sessions = new InMemorySessionService();
  private final Session session = sessions.createSession(APP, USER, Map.of(), null).blockingGet();

  /** What one run gave: its events, and the model's second request (after the tool call). */
  private record Run(List<Event> events, LlmRequest followUp) {

    /** The one function response of the run. */
    FunctionResponse response() {
      List<FunctionResponse> responses = new ArrayList<>();
      events.forEach(e -> responses.addAll(e.functionResponses()));
      assertThat(responses).hasSize(1);
      return responses.get(0);
    }

    String error() {
      Map<String, Object> response = response().response().orElseThrow();
      assertThat(response).containsOnlyKeys("error");
      return (String) response.get("error");
    }

    /** The function response the model was sent in its follow-up request. */
    Map<String, Object> responseTheModelSaw() {
      for (Content c : followUp.contents()) {
        for (Part p : c.parts().orElse(List.of())) {
          if (p.functionResponse().isPresent()) {
            return p.functionResponse().get().response().orElseThrow();
          }
        }
      }
      throw new AssertionError("the follow-up request carries no function response");
    }
  }

  /**
   * Runs an agent with {@code tools} (and {@code configure} applied) whose model calls {@code
   * toolName} with {@code args}, then answers "recovered"; checks the run got to that answer.
   */
  private Run run(
      String toolName,
      Map<String, ?> args,
      List<BaseTool> tools,
      Function<LlmAgent.Builder, LlmAgent.Builder> configure) {
    ScriptedLlm llm =
        ScriptedLlm.builder().thenFunctionCall(toolName, args).thenText("recovered").build();
    LlmAgent agent =
        configure.apply(LlmAgent.builder().name("worker").model(llm).tools(tools)).build();
    InvocationContext ctx =
        InvocationContext.builder()
            .sessionService(sessions)
            .agent(agent)
            .session(session)
            .userContent(Contents.user("go"))
            .build();
    ctx.persist(
        Event.builder()
            .invocationId(ctx.invocationId())
            .author("user")
            .content(Contents.user("go"))
            .build());

    List<Event> events = agent.runAsync(ctx).toList().blockingGet();

    assertThat(events.get(events.size() - 1).stringifyContent()).isEqualTo("recovered");
    assertThat(llm.requests()).hasSize(2);
    return new Run(events, llm.requests().get(1));
  }

  private Run run(String toolName, Map<String, ?> args, BaseTool... tools) {
    return run(toolName, args, List.of(tools), b -> b);
  }

  private Map<String, Object> storedState() {
    return sessions.getSession(APP, USER, session.id()).blockingGet().state();
  }

  /** A hand-written tool that writes {@code written} to state, then runs {@code body}. */
  private static BaseTool tool(
      String name, Function<ToolContext, Single<Map<String, Object>>> body) {
    return new BaseTool(name, "a test tool") {
      @Override
      public Optional<FunctionDeclaration> declaration() {
        return Optional.of(FunctionDeclaration.builder().name(name).build());
      }

      @Override
      public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext context) {
        context.state().put("written", name);
        return body.apply(context);
      }
    };
  }

  /** Methods for {@link FunctionTool}s. */
  public static final class Methods {
    static final AtomicInteger REPEATS = new AtomicInteger();

    public static String explode(String reason, ToolContext context) {
      context.state().put("written", "explode");
      throw new IllegalStateException("cannot do it: " + reason);
    }

    public static String repeat(String text, int times) {
      REPEATS.incrementAndGet();
      return text.repeat(times);
    }
  }

  @Test
  void toolThatThrows_isAnErrorResponseNamingToolAndException_andItsWritesAreDiscarded() {
    BaseTool throwing =
        tool(
            "explode",
            ctx -> {
              throw new IllegalStateException("boom");
            });

    Run run = run("explode", Map.of(), throwing);

    assertThat(run.error()).isEqualTo("Tool 'explode' failed: IllegalStateException: boom");
    assertThat(run.responseTheModelSaw()).containsEntry("error", run.error());
    assertThat(run.response().name()).contains("explode");
    assertThat(storedState()).doesNotContainKey("written");
  }

  @Test
  void toolWhoseSingleFails_isTheSameErrorResponse() {
    Run run =
        run(
            "explode",
            Map.of(),
            tool("explode", ctx -> Single.error(new IllegalStateException("boom"))));

    assertThat(run.error()).isEqualTo("Tool 'explode' failed: IllegalStateException: boom");
    assertThat(storedState()).doesNotContainKey("written");
  }

  @Test
  void toolWhoseSingleFailsWithACheckedException_namesThatException() {
    Run run =
        run(
            "read_disk",
            Map.of(),
            tool("read_disk", ctx -> Single.error(new IOException("disk gone"))));

    assertThat(run.error()).isEqualTo("Tool 'read_disk' failed: IOException: disk gone");
  }

  @Test
  void exceptionWithoutMessage_isNamedByItsClass() {
    Run run =
        run(
            "explode",
            Map.of(),
            tool(
                "explode",
                ctx -> {
                  throw new UnsupportedOperationException();
                }));

    assertThat(run.error()).isEqualTo("Tool 'explode' failed: UnsupportedOperationException");
  }

  @Test
  void functionToolWhoseMethodThrows_readsLikeAHandWrittenTool() {
    Run run =
        run(
            "explode",
            Map.of("reason", "disk full"),
            FunctionTool.create(Methods.class, "explode"));

    assertThat(run.error())
        .isEqualTo("Tool 'explode' failed: IllegalStateException: cannot do it: disk full");
    assertThat(run.responseTheModelSaw()).containsEntry("error", run.error());
    assertThat(storedState()).doesNotContainKey("written");
  }

  @Test
  void unknownToolName_isAnErrorResponseNamingItAndTheAvailableTools() {
    BaseTool known = tool("known", ctx -> Single.just(Map.of("ok", true)));

    Run run = run("ghost", Map.of("x", 1), known);

    assertThat(run.error())
        .isEqualTo("Tool 'ghost' is not available to agent 'worker'; available: [known]");
    assertThat(run.response().name()).contains("ghost");
    assertThat(run.responseTheModelSaw()).containsEntry("error", run.error());
    assertThat(storedState()).doesNotContainKey("written");
  }

  @Test
  void argumentThatCannotBeConverted_isAnErrorResponse_andTheToolDoesNotRun() {
    int before = Methods.REPEATS.get();

    Run run =
        run(
            "repeat",
            Map.of("text", "ab", "times", "many"),
            FunctionTool.create(Methods.class, "repeat"));

    assertThat(run.error())
        .startsWith("Tool 'repeat' got an invalid value for argument 'times': expected int, got")
        .contains("\"many\"");
    assertThat(run.responseTheModelSaw()).containsEntry("error", run.error());
    assertThat(Methods.REPEATS.get()).isEqualTo(before);
  }

  @Test
  void missingRequiredArgument_isAnErrorResponse_andTheToolDoesNotRun() {
    int before = Methods.REPEATS.get();

    Run run = run("repeat", Map.of("text", "ab"), FunctionTool.create(Methods.class, "repeat"));

    assertThat(run.error())
        .isEqualTo("Tool 'repeat' was called without its required argument 'times' (int)");
    assertThat(Methods.REPEATS.get()).isEqualTo(before);
  }

  @Test
  void beforeToolCallbackThatThrows_isAnErrorResponse_andItsWritesAreDiscarded() {
    AtomicInteger toolRuns = new AtomicInteger();
    BaseTool counted =
        tool(
            "count",
            ctx -> {
              toolRuns.incrementAndGet();
              return Single.just(Map.of("ok", true));
            });

    Run run =
        run(
            "count",
            Map.of(),
            List.of(counted),
            b ->
                b.beforeToolCallback(
                    (tool, args, ctx) -> {
                      ctx.state().put("callback_wrote", true);
                      return Maybe.error(new IllegalArgumentException("not now"));
                    }));

    assertThat(run.error()).isEqualTo("Tool 'count' failed: IllegalArgumentException: not now");
    assertThat(toolRuns).hasValue(0);
    assertThat(storedState()).doesNotContainKeys("callback_wrote", "written");
  }

  @Test
  void afterToolCallbackThatThrows_isAnErrorResponse_andTheToolsWritesAreDiscarded() {
    BaseTool writing = tool("write", ctx -> Single.just(Map.of("ok", true)));

    Run run =
        run(
            "write",
            Map.of(),
            List.of(writing),
            b ->
                b.afterToolCallback(
                    (tool, args, ctx, response) -> {
                      throw new IllegalStateException("bad response " + response);
                    }));

    assertThat(run.error())
        .isEqualTo("Tool 'write' failed: IllegalStateException: bad response {ok=true}");
    assertThat(storedState()).doesNotContainKey("written");
  }

  @Test
  void transferToAnAgentThatDoesNotExist_isAnErrorResponse_andNoTransfer() {
    LlmAgent helper =
        LlmAgent.builder()
            .name("helper")
            .model(ScriptedLlm.answering(r -> ScriptedLlm.textResponse("never")))
            .build();

    Run run =
        run(
            LlmAgent.TRANSFER_TO_AGENT,
            Map.of("agent_name", "nobody"),
            List.of(),
            b -> b.subAgents(helper));

    assertThat(run.error())
        .isEqualTo(
            "Agent 'worker' cannot transfer to unknown agent 'nobody'; it can transfer to: helper");
    assertThat(run.events()).noneMatch(e -> e.author().equals("helper"));
    assertThat(run.events()).allMatch(e -> e.actions().transferToAgent().isEmpty());
  }

  @Test
  void transferWithoutAnAgentName_isAnErrorResponse() {
    LlmAgent helper =
        LlmAgent.builder()
            .name("helper")
            .model(ScriptedLlm.answering(r -> ScriptedLlm.textResponse("never")))
            .build();

    Run run = run(LlmAgent.TRANSFER_TO_AGENT, Map.of(), List.of(), b -> b.subAgents(helper));

    assertThat(run.error()).isEqualTo("transfer_to_agent needs a string agent_name");
  }

  @Test
  void toolWithoutFailure_answersAsIs() {
    Map<String, Object> answer = Map.of("ok", true);
    String[] seen = new String[1];

    Run run =
        run(
            "fine",
            Map.of(),
            tool(
                "fine",
                ctx -> {
                  seen[0] = ctx.functionCallId().orElse(null);
                  return Single.just(answer);
                }));

    assertThat(run.response().response()).contains(answer);
    assertThat(run.response().id()).contains(seen[0]);
    assertThat(storedState()).containsEntry("written", "fine");
  }
}
