package dev.adk4j.agents;

import io.reactivex.rxjava3.core.Single;

/**
 * Computes an agent's instruction from the context. Its text is used as is: placeholders are not
 * filled unless the provider calls {@link InstructionUtils#injectSessionState} itself.
 */
@FunctionalInterface
public interface InstructionProvider {
  Single<String> getInstruction(ReadonlyContext context);
}
