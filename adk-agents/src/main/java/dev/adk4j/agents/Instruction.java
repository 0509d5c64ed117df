package dev.adk4j.agents;

import io.reactivex.rxjava3.core.Single;
import java.util.Objects;
import java.util.function.Function;

/**
 * An agent's instruction in the two forms ADK for Java spells with this type: a template ({@link
 * Static}) or a function of the context ({@link Provider}). Both are {@link InstructionProvider}s,
 * so {@code LlmAgent.builder().instruction(new Instruction.Provider(...))} and {@code
 * globalInstruction(...)} take them as they are; a plain {@code String} or an {@link
 * InstructionProvider} lambda works too.
 */
public sealed interface Instruction extends InstructionProvider
    permits Instruction.Static, Instruction.Provider {

  /**
   * A template whose {@code {key}} placeholders are filled from state at each model call, the same
   * as passing the {@code String} itself.
   */
  record Static(String instruction) implements Instruction {
    public Static {
      Objects.requireNonNull(instruction, "instruction");
    }

    @Override
    public Single<String> getInstruction(ReadonlyContext context) {
      return InstructionUtils.injectSessionState(context, instruction);
    }
  }

  /**
   * An instruction computed per model call from a read-only context; its text is used as is (call
   * {@link InstructionUtils#injectSessionState} to fill placeholders).
   */
  record Provider(Function<ReadonlyContext, Single<String>> getInstruction) implements Instruction {
    public Provider {
      Objects.requireNonNull(getInstruction, "getInstruction");
    }

    @Override
    public Single<String> getInstruction(ReadonlyContext context) {
      return Single.defer(() -> getInstruction.apply(context));
    }
  }
}
