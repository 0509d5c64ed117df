package dev.adk4j.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.adk4j.state.Scope;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * adk4j's state check for one invocation of a case: the state expected after it (keys with their
 * prefixes, {@code user:count}; {@code temp:} keys are refused, they are never stored), compared
 * per scope exactly or as a subset, and the {@code stateDelta} expected on each event of the
 * invocation that has one, in order.
 *
 * <p>In the eval set JSON it is an entry of the case's {@code adk4j_state_checks} list, a field ADK
 * for Python keeps (an eval case allows extra fields) and ignores:
 *
 * <pre>{@code
 * "adk4j_state_checks": [
 *   {"invocation_index": 0, "state": {"user:visits": 1, "last_city": "Paris"},
 *    "match": "SUBSET", "scopes": ["SESSION", "USER"],
 *    "state_deltas": [{"last_city": "Paris"}, {"user:visits": 1}]}
 * ]
 * }</pre>
 *
 * @param invocationIndex the invocation (0-based) after which the state is read
 * @param state the expected keys and values; empty means no state check
 * @param match {@code EXACT}: the scope's keys are exactly these; {@code SUBSET}: these keys have
 *     these values, others may exist
 * @param scopes the scopes compared (default session, user and app)
 * @param stateDeltas the expected non-empty {@code stateDelta}s of the invocation's events, in
 *     order; null means not checked
 */
public record StateExpectation(
    int invocationIndex,
    Map<String, Object> state,
    Match match,
    Set<Scope> scopes,
    @org.jspecify.annotations.Nullable List<Map<String, Object>> stateDeltas) {

  /** How expected state is compared with the stored state of a scope. */
  public enum Match {
    EXACT,
    SUBSET
  }

  static final String FIELD = "adk4j_state_checks";

  public StateExpectation {
    if (invocationIndex < 0) {
      throw new IllegalArgumentException("invocationIndex < 0: " + invocationIndex);
    }
    Objects.requireNonNull(match, "match");
    state = Collections.unmodifiableMap(new LinkedHashMap<>(state));
    for (String key : state.keySet()) {
      Scope scope = Scope.of(key);
      if (scope == Scope.TEMP || scope == Scope.SECRET) {
        throw new IllegalArgumentException(
            "State check key " + key + ": " + scope.prefix() + " keys are never stored");
      }
    }
    scopes =
        Collections.unmodifiableSet(scopes.isEmpty() ? defaultScopes() : EnumSet.copyOf(scopes));
    stateDeltas = stateDeltas == null ? null : List.copyOf(stateDeltas);
  }

  /** Expects these keys (by prefix: session, {@code user:}, {@code app:}) after an invocation. */
  public static StateExpectation subset(int invocationIndex, Map<String, Object> state) {
    return new StateExpectation(invocationIndex, state, Match.SUBSET, Set.of(), null);
  }

  /** Expects exactly these keys in the scopes they name after an invocation. */
  public static StateExpectation exact(int invocationIndex, Map<String, Object> state) {
    return new StateExpectation(invocationIndex, state, Match.EXACT, Set.of(), null);
  }

  /** A copy that also expects these state deltas on the invocation's events, in order. */
  public StateExpectation withStateDeltas(List<Map<String, Object>> deltas) {
    return new StateExpectation(invocationIndex, state, match, scopes, deltas);
  }

  private static Set<Scope> defaultScopes() {
    return EnumSet.of(Scope.SESSION, Scope.USER, Scope.APP);
  }

  static List<StateExpectation> parseAll(JsonNode caseNode, String path, String source) {
    JsonNode list = caseNode.get(FIELD);
    List<StateExpectation> out = new ArrayList<>();
    if (list == null || list.isNull()) {
      return out;
    }
    int i = 0;
    for (JsonNode n : Nodes.array(list, path + "." + FIELD, source)) {
      String p = path + "." + FIELD + "[" + i++ + "]";
      Nodes.object(n, p, source);
      JsonNode index = Nodes.required(n, "invocation_index", p, source);
      if (!index.canConvertToInt() || index.asInt() < 0) {
        throw new EvalFormatException(
            source, p + ".invocation_index", "expected an invocation index >= 0");
      }
      JsonNode s = Nodes.field(n, "state");
      Map<String, Object> state = s == null ? Map.of() : Nodes.map(s, p + ".state", source);
      for (String key : state.keySet()) {
        Scope scope = Scope.of(key);
        if (scope == Scope.TEMP || scope == Scope.SECRET) {
          throw new EvalFormatException(
              source,
              p + ".state." + key,
              scope.prefix() + " keys are never stored, so they cannot be expected");
        }
      }
      Match match = Match.SUBSET;
      String m = Nodes.optionalText(n, "match", p, source);
      if (m != null) {
        try {
          match = Match.valueOf(m.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
          throw new EvalFormatException(source, p + ".match", "expected EXACT or SUBSET");
        }
      }
      Set<Scope> scopes = EnumSet.noneOf(Scope.class);
      JsonNode sc = Nodes.field(n, "scopes");
      if (sc != null) {
        int j = 0;
        for (JsonNode x : Nodes.array(sc, p + ".scopes", source)) {
          String sp = p + ".scopes[" + j++ + "]";
          try {
            Scope scope = Scope.valueOf(x.asText().toUpperCase(java.util.Locale.ROOT));
            if (!defaultScopes().contains(scope)) {
              throw new IllegalArgumentException();
            }
            scopes.add(scope);
          } catch (IllegalArgumentException e) {
            throw new EvalFormatException(source, sp, "expected SESSION, USER or APP");
          }
        }
      }
      List<Map<String, Object>> deltas = null;
      JsonNode d = Nodes.field(n, "state_deltas");
      if (d != null) {
        deltas = new ArrayList<>();
        int j = 0;
        for (JsonNode x : Nodes.array(d, p + ".state_deltas", source)) {
          deltas.add(Nodes.map(x, p + ".state_deltas[" + j++ + "]", source));
        }
      }
      out.add(new StateExpectation(index.asInt(), state, match, scopes, deltas));
    }
    return out;
  }

  ObjectNode toNode() {
    ObjectNode n = Nodes.F.objectNode();
    n.put("invocation_index", invocationIndex);
    n.set("state", Nodes.tree(state));
    n.put("match", match.name());
    ArrayNode sc = n.putArray("scopes");
    scopes.forEach(s -> sc.add(s.name()));
    if (stateDeltas != null) {
      n.set("state_deltas", Nodes.tree(stateDeltas));
    }
    return n;
  }
}
