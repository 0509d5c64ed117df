package dev.adk4j.agents;

import io.reactivex.rxjava3.core.Single;

/**
 * Computes an agent's instruction from the context. Its text is used as is: placeholders are not
 * filled unless the provider calls {@link InstructionUtils#injectSessionState} itself.
 *
 * <p>The context is read only (a plain {@link ReadonlyContext}, never a {@link CallbackContext}): a
 * provider reads state, {@code temp:} keys included, and artifacts; writing state through it throws
 * an {@link UnsupportedOperationException} naming the key. Write state from a callback or a tool
 * instead.
 */
@FunctionalInterface
public interface InstructionProvider {
  Single<String> getInstruction(ReadonlyContext context);
}
