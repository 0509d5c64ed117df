package dev.adk4j.eval;

import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import dev.adk4j.state.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** Compares a {@link StateExpectation} with a session's state and an invocation's events. */
final class StateDiff {
  private StateDiff() {}

  /** The differences, one readable line each (key, expected, actual); empty if it holds. */
  static List<String> diff(StateExpectation s, Map<String, Object> state, List<Event> events) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Object> e : new java.util.TreeMap<>(s.state()).entrySet()) {
      Scope scope = Scope.of(e.getKey());
      if (!s.scopes().contains(scope)) {
        continue;
      }
      if (!state.containsKey(e.getKey())) {
        out.add(e.getKey() + ": expected " + Json.toJson(e.getValue()) + ", missing");
      } else if (!Json.sameValue(Json.normalize(e.getKey(), e.getValue()), state.get(e.getKey()))) {
        out.add(
            e.getKey()
                + ": expected "
                + Json.toJson(e.getValue())
                + ", actual "
                + Json.toJson(state.get(e.getKey())));
      }
    }
    if (s.match() == StateExpectation.Match.EXACT) {
      for (String key : new TreeSet<>(state.keySet())) {
        Scope scope = Scope.of(key);
        if (s.scopes().contains(scope) && !s.state().containsKey(key)) {
          out.add(
              key + ": not expected (EXACT " + scope + "), actual " + Json.toJson(state.get(key)));
        }
      }
    }
    if (s.stateDeltas() != null) {
      List<Map<String, Object>> actual = new ArrayList<>();
      for (Event e : events) {
        if (!e.partial().orElse(false) && !e.actions().stateDelta().isEmpty()) {
          actual.add(Scope.withoutTemp(e.actions().stateDelta()));
        }
      }
      actual.removeIf(Map::isEmpty);
      List<Map<String, Object>> expected = s.stateDeltas();
      if (!Json.sameValue(
          Json.normalize("state_deltas", expected), Json.normalize("state_deltas", actual))) {
        out.add(
            "stateDelta per event: expected "
                + Json.toJson(expected)
                + ", actual "
                + Json.toJson(actual));
      }
    }
    return out;
  }
}
