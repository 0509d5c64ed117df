package dev.adk4j.workflows;

import dev.adk4j.state.ReadonlyState;
import java.util.Objects;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * An edge of a {@link Workflow}: after {@code from} finishes, {@code to} may run. An edge with a
 * {@code route} is taken only when {@code from} chose that route (a classifier's answer, or {@link
 * NodeContext#route}); an edge with a {@code condition} only when the condition holds on the state
 * as it is when {@code from} finishes (its own writes included). Which edges were taken is stored
 * with the node's completion, so a resumed run takes the same ones.
 *
 * @param from a node name, or {@link Workflow#START}
 * @param to a node name
 * @param route the route that selects this edge, or null
 * @param condition the condition on state that selects this edge, or null
 */
public record Edge(
    String from, String to, @Nullable String route, @Nullable Predicate<ReadonlyState> condition) {

  public Edge {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    if (route != null && condition != null) {
      throw new IllegalArgumentException(
          "Edge '" + from + "' -> '" + to + "' has both a route and a condition; give one");
    }
  }

  /**
   * Whether this edge is taken after {@code from} chose {@code chosen} with state {@code state}.
   */
  boolean taken(@Nullable String chosen, ReadonlyState state) {
    if (route != null) {
      return route.equals(chosen);
    }
    return condition == null || condition.test(state);
  }
}
