package dev.adk4j.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code response_match_score} (ROUGE-1 F-measure) against scores worked out by hand from the
 * definitions of ADK and the {@code rouge_score} package; docs/evaluation.md shows each one's
 * working. Each was confirmed with Python: rouge_score's tokenizer rules with NLTK 3.10.3's own
 * PorterStemmer (rouge_score itself is not installable here).
 */
class RougeTest {

  @ParameterizedTest(name = "[{index}] \"{0}\" vs \"{1}\" = {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          The weather in Paris is sunny.   | The weather in Paris is sunny. | 1.0000
          The cat sat on the mat           | The cat is on the mat          | 0.8333
          It is raining in Paris           | It rains in Paris              | 0.8889
          ''                               | hello                          | 0.0000
          ''                               | ''                             | 0.0000
          'Hello, World!'                  | hello world                    | 1.0000
          yes yes yes                      | yes                            | 0.5000
          東京は晴れです                    | 東京は晴れです                  | 0.0000
          The temperature is 21 degrees    | It is 21 degrees               | 0.6667
          cats and dogs                    | a cat and a dog                | 0.7500
          Café crème                       | cafe creme                     | 0.0000
          The answer is 42.                | 42                             | 0.4000
          'I have rolled a 17 sided die twice. The first roll was 13 and the second roll was 4.' | 'I rolled a 17 sided die twice: first 13, then 4.' | 0.6667
          """)
  void rouge1FMeasure_matchesAdk(String candidate, String reference, double expected) {
    assertThat(EvalMetrics.rouge1FMeasure(candidate, reference)).isCloseTo(expected, within(5e-5));
  }

  @Test
  void tokenize_lowercasesSplitsOnNonAlphanumericsAndStemsLongTokensOnly() {
    assertThat(Rouge.tokenize("It's RAINING, cats & dogs in 2026!", true))
        .containsExactly("it", "s", "rain", "cat", "dog", "in", "2026");
    assertThat(Rouge.tokenize("It's RAINING", false)).containsExactly("it", "s", "raining");
  }

  @Test
  void latinScript_decidesStemming_asAdkDoes() {
    assertThat(Rouge.latin("Paris is sunny")).isTrue();
    assertThat(Rouge.latin("12 + 30")).isTrue();
    assertThat(Rouge.latin("東京は晴れです")).isFalse();
    assertThat(Rouge.latin("Tokyo 東京")).isTrue(); // 5 Latin letters of 7
  }

  @Test
  void porterStemmer_equalsNltkOnThousandsOfWords() throws Exception {
    List<String> mismatches = new ArrayList<>();
    int words = 0;
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(
                Objects.requireNonNull(getClass().getResourceAsStream("nltk-porter-stems.tsv")),
                StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (line.startsWith("#") || line.isBlank()) {
          continue;
        }
        String[] f = line.split("\t");
        words++;
        String stem = PorterStemmer.stem(f[0]);
        if (!stem.equals(f[1])) {
          mismatches.add(f[0] + ": nltk " + f[1] + ", ours " + stem);
        }
      }
    }
    assertThat(words).isGreaterThan(3000);
    assertThat(mismatches).isEmpty();
  }
}
