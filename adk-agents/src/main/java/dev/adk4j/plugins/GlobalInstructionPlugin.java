package dev.adk4j.plugins;

import dev.adk4j.agents.CallbackContext;
import dev.adk4j.agents.InstructionProvider;
import dev.adk4j.agents.InstructionUtils;
import dev.adk4j.agents.ReadonlyContext;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import io.reactivex.rxjava3.core.Maybe;
import java.util.Objects;

/**
 * Puts one instruction before the system instruction of every model call of every agent the runner
 * runs (ADK's {@code GlobalInstructionPlugin}): an application-wide identity, policy or guard, with
 * no agent having to declare it. Agents used through an {@code AgentTool} get it too.
 *
 * <p>A text instruction is templated like an agent's ({@code {key}} and {@code {key?}} filled from
 * state, see {@link InstructionUtils}); an {@link InstructionProvider}'s text is used as it is.
 * Both read state through a read-only context: the plugin never writes state. An empty instruction
 * adds nothing.
 *
 * <pre>{@code
 * Runner runner = Runner.builder().agent(root).appName("shop")
 *     .plugins(new GlobalInstructionPlugin("You work for {app:shop_name}. Never share card numbers."))
 *     .build();
 * }</pre>
 */
public class GlobalInstructionPlugin extends BasePlugin {

  /** The name of a plugin built without one. */
  public static final String DEFAULT_NAME = "global_instruction";

  private final InstructionProvider instruction;

  /** A plugin named {@value #DEFAULT_NAME} prepending {@code instruction}, templated. */
  public GlobalInstructionPlugin(String instruction) {
    this(instruction, DEFAULT_NAME);
  }

  /** A plugin named {@code name} prepending {@code instruction}, templated. */
  public GlobalInstructionPlugin(String instruction, String name) {
    this(templated(Objects.requireNonNull(instruction, "instruction")), name);
  }

  /** A plugin named {@value #DEFAULT_NAME} prepending what {@code provider} gives, as it is. */
  public GlobalInstructionPlugin(InstructionProvider provider) {
    this(provider, DEFAULT_NAME);
  }

  /** A plugin named {@code name} prepending what {@code provider} gives, as it is. */
  public GlobalInstructionPlugin(InstructionProvider provider, String name) {
    super(name);
    this.instruction = Objects.requireNonNull(provider, "provider");
  }

  private static InstructionProvider templated(String text) {
    return context -> InstructionUtils.injectSessionState(context, text);
  }

  @Override
  public Maybe<LlmResponse> beforeModelCallback(
      CallbackContext callbackContext, LlmRequest.Builder llmRequest) {
    return instruction
        .getInstruction(ReadonlyContext.readonlyView(callbackContext))
        .doOnSuccess(llmRequest::prependInstruction)
        .ignoreElement()
        .toMaybe();
  }
}
