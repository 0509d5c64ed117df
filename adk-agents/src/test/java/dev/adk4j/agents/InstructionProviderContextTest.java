package dev.adk4j.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.events.Event;
import dev.adk4j.state.State;
import dev.adk4j.testing.ScriptedLlm;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Instruction providers (the agent's and the root's global one) get a read-only context: they read
 * state and artifacts, and cannot write state, whatever they cast it to.
 */
class InstructionProviderContextTest {

  /** What a provider saw and what its write attempts did. */
  static final class Probe implements InstructionProvider {
    final String key;
    final AtomicReference<ReadonlyContext> context = new AtomicReference<>();
    final List<Throwable> refusals = new ArrayList<>();

    Probe(String key) {
      this.key = key;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Single<String> getInstruction(ReadonlyContext ctx) {
      context.set(ctx);
      // What a provider could try: use the context as the CallbackContext it may be, or cast
      // its state to the Map it may be.
      if (ctx instanceof CallbackContext) {
        ((CallbackContext) ctx).state().put(key + "_via_callback_context", 1);
      }
      try {
        ((Map<String, Object>) ctx.state()).put(key, 1);
      } catch (RuntimeException e) {
        refusals.add(e);
      }
      return Single.just("Provided by " + key + ".");
    }
  }

  private static LlmAgent agentWith(InstructionProvider instruction, ScriptedLlm model) {
    return LlmAgent.builder().name("probed").model(model).instruction(instruction).build();
  }

  @Test
  void instructionProvider_getsAReadonlyContext_whoseStateRefusesWrites_namingTheKey() {
    AgentHarness harness = new AgentHarness();
    Probe probe = new Probe("sneaky");
    ScriptedLlm model = ScriptedLlm.builder().thenText("ok").build();

    List<Event> events = harness.run(agentWith(probe, model), "go");

    assertThat(probe.context.get()).isNotNull().isNotInstanceOf(CallbackContext.class);
    assertThat(probe.context.get().state()).isNotInstanceOf(State.class);
    assertThat(probe.refusals)
        .singleElement()
        .isInstanceOf(UnsupportedOperationException.class)
        .satisfies(e -> assertThat(e.getMessage()).contains("'sneaky'").contains("read-only"));
    assertThat(model.lastRequest().systemInstruction()).contains("Provided by sneaky.");
    assertThat(events).allSatisfy(e -> assertThat(e.actions().stateDelta()).isEmpty());
    assertThat(harness.stored().state())
        .doesNotContainKeys("sneaky", "sneaky_via_callback_context");
  }

  @Test
  void globalInstructionProvider_getsAReadonlyContext_too() {
    AgentHarness harness = new AgentHarness();
    Probe global = new Probe("global_sneaky");
    ScriptedLlm model = ScriptedLlm.builder().thenText("ok").build();
    LlmAgent agent =
        LlmAgent.builder()
            .name("probed")
            .model(model)
            .globalInstruction(global)
            .instruction("Local.")
            .build();

    harness.run(agent, "go");

    assertThat(global.context.get()).isNotNull().isNotInstanceOf(CallbackContext.class);
    assertThat(global.refusals)
        .singleElement()
        .satisfies(e -> assertThat(e.getMessage()).contains("'global_sneaky'"));
    assertThat(model.lastRequest().systemInstruction())
        .hasValueSatisfying(i -> assertThat(i).contains("Provided by global_sneaky.", "Local."));
    assertThat(harness.stored().state())
        .doesNotContainKeys("global_sneaky", "global_sneaky_via_callback_context");
  }

  @Test
  void canonicalInstruction_givenACallbackContext_stillHandsTheProviderAReadonlyOne() {
    AgentHarness harness = new AgentHarness();
    Probe probe = new Probe("direct");
    LlmAgent agent = agentWith(probe, ScriptedLlm.builder().build());
    harness.run(new TestAgent("root"), "go"); // only to have an invocation context
    InvocationContext ctx = harness.lastContext().forAgent(agent);
    CallbackContext callbackContext = new CallbackContext(ctx);

    agent.canonicalInstruction(callbackContext).blockingGet();
    agent.canonicalGlobalInstruction(callbackContext).blockingGet();

    assertThat(probe.context.get()).isNotInstanceOf(CallbackContext.class);
    assertThat(probe.refusals).singleElement().isInstanceOf(UnsupportedOperationException.class);
    assertThat(callbackContext.actions().stateDelta()).isEmpty();
  }

  @Test
  void readonlyContext_readsStateTempKeysAndArtifacts_forTemplating() {
    AgentHarness harness =
        new AgentHarness(Map.of("topic", "sessions", "user:profile", Map.of("name", "Ada")));
    harness.saveTextArtifact("notes.txt", "remember the delta");
    AtomicReference<Object> moodSeen = new AtomicReference<>();
    ScriptedLlm model = ScriptedLlm.builder().thenText("ok").build();
    LlmAgent agent =
        LlmAgent.builder()
            .name("templated")
            .model(model)
            .beforeAgentCallback(
                ctx -> {
                  ctx.state().put("temp:mood", "curious");
                  return Maybe.empty();
                })
            .instruction(
                ctx -> {
                  moodSeen.set(ctx.state().get("temp:mood"));
                  return InstructionUtils.injectSessionState(
                      ctx,
                      "Help {user:profile.name} with {topic} ({temp:mood}); notes:"
                          + " {artifact.notes.txt}; missing: [{nothing?}]");
                })
            .build();

    harness.run(agent, "go");

    assertThat(moodSeen.get()).isEqualTo("curious");
    assertThat(model.lastRequest().systemInstruction())
        .hasValueSatisfying(
            i ->
                assertThat(i)
                    .contains(
                        "Help Ada with sessions (curious); notes: remember the delta; missing: []"));
  }

  @Test
  void readonlyContext_stateIsALiveView_andNestedValuesAreCopies() {
    AgentHarness harness = new AgentHarness(Map.of("user:profile", Map.of("name", "Ada")));
    harness.run(new TestAgent("root"), "go");
    InvocationContext ctx = harness.lastContext();
    ReadonlyContext readonly = new ReadonlyContext(ctx);

    @SuppressWarnings("unchecked")
    Map<String, Object> profile = (Map<String, Object>) readonly.state().get("user:profile");
    profile.put("name", "Eve"); // a copy: the live state is untouched
    new CallbackContext(ctx).state().put("later", "seen");

    assertThat(readonly.state().get("user:profile")).isEqualTo(Map.of("name", "Ada"));
    assertThat(readonly.state().get("later")).isEqualTo("seen");
    assertThatThrownBy(() -> readonlyMap(readonly).remove("later"))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("'later'");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> readonlyMap(ReadonlyContext ctx) {
    return (Map<String, Object>) ctx.state();
  }
}
