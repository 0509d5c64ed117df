package dev.adk4j.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * ADK for Java's spellings that adk4j accepts besides its own (see {@code
 * docs/migrating-from-adk-java.md}) mean what they mean there.
 */
class AdkSpellingsTest {

  /** A model that calls {@code echo} once, then answers with the text it was sent last. */
  static final class EchoOnceModel extends BaseLlm {
    final List<LlmRequest> requests = Collections.synchronizedList(new ArrayList<>());

    EchoOnceModel() {
      super("echo-once");
    }

    @Override
    public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
      return Flowable.fromCallable(
          () -> {
            requests.add(request);
            Content last = request.contents().get(request.contents().size() - 1);
            Part part = last.parts().orElseThrow().get(0);
            Part reply =
                part.functionResponse().isPresent()
                    ? Part.fromText("echoed " + part.functionResponse().get().response().get())
                    : Part.builder()
                        .functionCall(
                            FunctionCall.builder()
                                .id("call-1")
                                .name("echo")
                                .args(Map.of("text", "hi"))
                                .build())
                        .build();
            return LlmResponse.builder()
                .content(Content.builder().role("model").parts(List.of(reply)).build())
                .build();
          });
    }
  }

  /** The tool the model calls. */
  public static Map<String, Object> echo(
      @Schema(name = "text", description = "what to echo") String text, ToolContext toolContext) {
    toolContext.state().put("echoed", text);
    return Map.of("text", text);
  }

  private static Content model(String text) {
    return Content.builder().role("model").parts(List.of(Part.fromText(text))).build();
  }

  @Test
  void runConfig_setSpellings_setTheSameSettings_andBuilderOfConfigCopiesThem() {
    RunConfig adk =
        RunConfig.builder()
            .setStreamingMode(RunConfig.StreamingMode.SSE)
            .setMaxLlmCalls(7)
            .setAutoCreateSession(true)
            .build();

    assertThat(adk.streamingMode()).isEqualTo(RunConfig.StreamingMode.SSE);
    assertThat(adk.maxLlmCalls()).isEqualTo(7);
    assertThat(adk.autoCreateSession()).isTrue();
    assertThat(RunConfig.builder(adk).build()).hasToString(adk.toString());
    assertThat(RunConfig.builder(adk).setMaxLlmCalls(3).build().maxLlmCalls()).isEqualTo(3);
    assertThatThrownBy(() -> RunConfig.builder().setStreamingMode(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("streamingMode");
  }

  @Test
  void instructionStatic_isTemplated_providerTextIsUsedAsIs_andMayTemplateThroughTheInvocation() {
    AgentHarness harness = new AgentHarness(Map.of("user:name", "Alice"));
    EchoOnceModel model = new EchoOnceModel();
    AtomicReference<ReadonlyContext> seen = new AtomicReference<>();
    LlmAgent agent =
        LlmAgent.builder()
            .name("templated")
            .model(model)
            .instruction(new Instruction.Static("Static for {user:name}."))
            .globalInstruction(
                new Instruction.Provider(
                    ctx -> {
                      seen.set(ctx);
                      return InstructionUtils.injectSessionState(
                              ctx.invocationContext(), "Via invocation: {user:name}.")
                          .map(filled -> filled + " Raw: {user:name}.");
                    }))
            .tools(FunctionTool.create(AdkSpellingsTest.class, "echo"))
            .build();

    harness.run(agent, "go");

    assertThat(model.requests.get(0).systemInstruction())
        .hasValueSatisfying(
            s ->
                assertThat(s)
                    .contains("Static for Alice.")
                    .contains("Via invocation: Alice. Raw: {user:name}."));
    assertThat(seen.get()).isNotInstanceOf(CallbackContext.class);
    assertThat(seen.get().invocationContext().session().id()).isEqualTo(harness.stored().id());
    assertThatThrownBy(() -> new Instruction.Static(null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void toolCallbacksWithInvocation_getTheToolsInvocation_andShapeTheResponse() {
    AgentHarness harness = new AgentHarness();
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    Callbacks.BeforeToolCallbackWithInvocation before =
        (invocation, tool, args, toolContext) -> {
          seen.add(
              invocation.invocationId().equals(toolContext.invocationId())
                  + " "
                  + tool.name()
                  + " "
                  + args);
          toolContext.state().put("checked", true);
          return Maybe.empty();
        };
    Callbacks.AfterToolCallbackWithInvocation after =
        (invocation, tool, args, toolContext, response) -> {
          @SuppressWarnings("unchecked")
          Map<String, Object> stamped = new LinkedHashMap<>((Map<String, Object>) response);
          stamped.put("agent", invocation.agent().name());
          return Maybe.just(stamped);
        };
    LlmAgent agent =
        LlmAgent.builder()
            .name("tooled")
            .model(new EchoOnceModel())
            .instruction("Echo.")
            .tools(FunctionTool.create(AdkSpellingsTest.class, "echo"))
            .beforeToolCallback(before.toBeforeToolCallback())
            .afterToolCallback(after.toAfterToolCallback())
            .build();

    List<Event> events = harness.run(agent, "go");

    assertThat(seen).containsExactly("true echo {text=hi}");
    assertThat(events)
        .flatExtracting(Event::functionResponses)
        .singleElement()
        .satisfies(r -> assertThat(r.response()).hasValue(Map.of("text", "hi", "agent", "tooled")));
    assertThat(harness.stored().state())
        .containsEntry("checked", true)
        .containsEntry("echoed", "hi");
  }

  @Test
  void syncAgentCallbacks_optionalContentAnswers_emptyLetsTheAgentRun() {
    AgentHarness harness = new AgentHarness();
    EchoOnceModel model = new EchoOnceModel();
    LlmAgent skipped =
        LlmAgent.builder()
            .name("skipped")
            .model(model)
            .instruction("never sent")
            .beforeAgentCallbackSync(ctx -> Optional.of(model("answered by the callback")))
            .build();

    List<Event> events = harness.run(skipped, "go");

    assertThat(events)
        .extracting(Event::stringifyContent)
        .containsExactly("answered by the callback");
    assertThat(model.requests).isEmpty();

    List<String> order = Collections.synchronizedList(new ArrayList<>());
    LlmAgent ran =
        LlmAgent.builder()
            .name("ran")
            .model(new EchoOnceModel())
            .instruction("Echo.")
            .tools(FunctionTool.create(AdkSpellingsTest.class, "echo"))
            .afterAgentCallback(ctx -> Maybe.fromAction(() -> order.add("async")))
            .afterAgentCallbackSync(
                ctx -> {
                  order.add("sync");
                  ctx.state().put("after_sync", true);
                  return Optional.empty();
                })
            .build();

    List<Event> ranEvents = harness.run(ran, "go again");

    assertThat(order).as("ADK's setters replace; adk4j's add").containsExactly("async", "sync");
    assertThat(ranEvents).anySatisfy(e -> assertThat(e.stringifyContent()).contains("echoed"));
    assertThat(harness.stored().state()).containsEntry("after_sync", true);
  }

  @Test
  void customAgent_nullListsMeanNone() {
    BaseAgent custom =
        new BaseAgent("custom", null, null, null, null) {
          @Override
          protected Flowable<Event> runAsyncImpl(InvocationContext context) {
            return Flowable.just(newEvent(context).content(model("custom ran")).build());
          }
        };

    assertThat(custom.subAgents()).isEmpty();
    assertThat(custom.beforeAgentCallbacks()).isEmpty();
    assertThat(custom.afterAgentCallbacks()).isEmpty();
    assertThat(custom.description()).isEmpty();
    assertThat(new AgentHarness().run(custom, "go"))
        .extracting(Event::stringifyContent)
        .containsExactly("custom ran");
  }

  @Test
  void contexts_loadArtifactByNameOrVersion_andListArtifacts() {
    AgentHarness harness = new AgentHarness();
    harness.saveTextArtifact("notes.txt", "first");
    harness.saveTextArtifact("notes.txt", "second");
    harness.saveTextArtifact("other.txt", "x");
    Map<String, Object> read = new LinkedHashMap<>();
    BaseAgent reader =
        new BaseAgent("reader", "", List.of(), List.of(), List.of()) {
          @Override
          protected Flowable<Event> runAsyncImpl(InvocationContext context) {
            ReadonlyContext ctx = new ReadonlyContext(context);
            read.put("latest", ctx.loadArtifact("notes.txt").blockingGet().text().orElse(""));
            read.put("v0", ctx.loadArtifact("notes.txt", 0).blockingGet().text().orElse(""));
            read.put("missing", ctx.loadArtifact("nothing.txt").isEmpty().blockingGet());
            read.put("names", ctx.listArtifacts().blockingGet());
            return Flowable.empty();
          }
        };

    harness.run(reader, "go");

    assertThat(read)
        .containsEntry("latest", "second")
        .containsEntry("v0", "first")
        .containsEntry("missing", true)
        .containsEntry("names", List.of("notes.txt", "other.txt"));
  }

  @Test
  void injectSessionState_overAnInvocationContext_refusesNull() {
    assertThatThrownBy(() -> InstructionUtils.injectSessionState((InvocationContext) null, "{x}"))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("context");
  }
}
