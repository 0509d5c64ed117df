package dev.adk4j.workflows;

import org.jspecify.annotations.Nullable;

/**
 * The work of a function node: takes the node's input (the output of the node before it, converted
 * to the declared input type) and returns its output. State is read and written through {@link
 * NodeContext#state()}: the writes land in the node's completion event, stored in the same append
 * that marks the node finished. A function that throws has its writes discarded; the node's {@link
 * RetryConfig} decides whether it runs again.
 *
 * @param <I> the input type
 * @param <O> the output type
 */
@FunctionalInterface
public interface NodeFunction<I, O> {
  @Nullable O apply(NodeContext context, I input) throws Exception;
}
