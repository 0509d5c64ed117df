package dev.adk4j.tools;

import java.util.List;

/**
 * Chooses the few-shot examples an {@link ExampleTool} puts in a model request, as ADK for Java's
 * {@code com.google.adk.examples.BaseExampleProvider}: given the text of the user's message, the
 * examples that fit it (all of them, or the nearest ones). Called on the invocation's thread each
 * time the agent builds a request; an implementation shared by agents must be thread-safe.
 */
@FunctionalInterface
public interface BaseExampleProvider {

  /** The examples to show for {@code query} (the user's message as text), in order; never null. */
  List<Example> getExamples(String query);
}
