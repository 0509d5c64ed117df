package dev.adk4j.eval;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.FunctionCall;
import dev.adk4j.eval.EvalMetrics.MatchType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code tool_trajectory_avg_score}'s matching, case by case, with the expected outcome worked out
 * by hand from ADK's definition (docs/evaluation.md). Calls are written {@code name(k=v)}; a
 * trajectory is calls separated by spaces, {@code -} for none.
 */
class ToolTrajectoryTest {

  @ParameterizedTest(name = "[{index}] {0}: actual {1} vs expected {2} -> {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          EXACT     | a(x=1) b(y=2)        | a(x=1) b(y=2)   | true
          EXACT     | b(y=2) a(x=1)        | a(x=1) b(y=2)   | false
          EXACT     | a(x=1) b(y=2) c()    | a(x=1) b(y=2)   | false
          EXACT     | a(x=1)               | a(x=2)          | false
          EXACT     | a(x=1)               | a(x=1.0)        | true
          EXACT     | -                    | -               | true
          EXACT     | a()                  | a               | false
          IN_ORDER  | a(x=1) c() b(y=2)    | a(x=1) b(y=2)   | true
          IN_ORDER  | b(y=2) a(x=1)        | a(x=1) b(y=2)   | false
          IN_ORDER  | -                    | -               | true
          IN_ORDER  | a(x=1)               | -               | true
          IN_ORDER  | -                    | a(x=1)          | false
          IN_ORDER  | a(x=1) a(x=1)        | a(x=1) a(x=1)   | true
          IN_ORDER  | a(x=1)               | a(x=1) a(x=1)   | false
          ANY_ORDER | b(y=2) c() a(x=1)    | a(x=1) b(y=2)   | true
          ANY_ORDER | a(x=1)               | a(x=1) a(x=1)   | false
          ANY_ORDER | a(x=1) a(x=1) b(y=2) | a(x=1) a(x=1)   | true
          ANY_ORDER | b(y=3) a(x=1)        | a(x=1) b(y=2)   | false
          ANY_ORDER | c()                  | -               | true
          """)
  void toolCallsMatch_asAdkDefinesIt(
      MatchType match, String actual, String expected, boolean matches) {
    assertThat(EvalMetrics.toolCallsMatch(calls(actual), calls(expected), match, false))
        .isEqualTo(matches);
  }

  @Test
  void ignoreArgs_matchesByNameAlone() {
    assertThat(EvalMetrics.toolCallsMatch(calls("a(x=1)"), calls("a(x=2)"), MatchType.EXACT, true))
        .isTrue();
  }

  @Test
  void averageScore_isTheMeanOfPerInvocationMatches() {
    List<Invocation> expected =
        List.of(
            Invocation.of("q1", "r1", calls("a(x=1)")),
            Invocation.of("q2", "r2", calls("b(y=2)")),
            Invocation.of("q3", "r3", calls("-")));
    List<Invocation> actual =
        List.of(
            Invocation.of("q1", "r1", calls("a(x=1)")),
            Invocation.of("q2", "r2", calls("b(y=3)")),
            Invocation.of("q3", "r3", calls("-")));
    // 1 + 0 + 1 over 3 invocations
    assertThat(EvalMetrics.toolTrajectoryAvgScore(actual, expected, MatchType.EXACT))
        .isEqualTo(2.0 / 3);
    assertThat(EvalMetrics.toolTrajectoryAvgScore(List.of(), expected, MatchType.EXACT)).isNull();
    // response match over the same pairs: every final text equal
    assertThat(EvalMetrics.responseMatchScore(actual, expected)).isEqualTo(1.0);
  }

  /** {@code a(x=1) b()} calls; {@code a} without parentheses has no args at all. */
  static List<FunctionCall> calls(String spec) {
    List<FunctionCall> out = new ArrayList<>();
    if (spec.equals("-")) {
      return out;
    }
    for (String c : spec.trim().split("\\s+")) {
      int p = c.indexOf('(');
      if (p < 0) {
        out.add(FunctionCall.builder().name(c).build());
        continue;
      }
      Map<String, Object> args = new LinkedHashMap<>();
      String inner = c.substring(p + 1, c.length() - 1);
      for (String kv : inner.isEmpty() ? new String[0] : inner.split(",")) {
        String[] f = kv.split("=");
        args.put(
            f[0], f[1].contains(".") ? (Object) Double.parseDouble(f[1]) : Integer.valueOf(f[1]));
      }
      out.add(FunctionCall.builder().name(c.substring(0, p)).args(args).build());
    }
    return out;
  }
}
