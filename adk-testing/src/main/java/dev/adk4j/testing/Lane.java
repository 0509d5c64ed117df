package dev.adk4j.testing;

import dev.adk4j.models.LlmRequest;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * One script of a {@link ScriptedLlm} (a lane, or the default script) and the requests it answers:
 * its steps are used in order, one per matching call. Not thread-safe: the model's lock guards it.
 */
final class Lane {

  /** How the model's errors name this script, such as "the default script". */
  final String name;

  private final Predicate<LlmRequest> matcher;
  private final Deque<Step> steps;
  private final int scripted;

  Lane(String name, Predicate<LlmRequest> matcher, List<Step> steps) {
    this.name = name;
    this.matcher = matcher;
    this.steps = new ArrayDeque<>(steps);
    this.scripted = steps.size();
  }

  /** Whether this script answers {@code request}. */
  boolean matches(LlmRequest request) {
    return matcher.test(request);
  }

  /** Takes the next step; null if the script is used up. */
  @Nullable Step next() {
    return steps.poll();
  }

  /** How many steps were scripted. */
  int scripted() {
    return scripted;
  }

  /** How many steps are left. */
  int remaining() {
    return steps.size();
  }

  /** The descriptions of the steps left, in order. */
  List<String> unused() {
    return steps.stream().map(s -> s.description).toList();
  }
}
