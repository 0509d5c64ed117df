package dev.adk4j.eval;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * ROUGE-1 as ADK's {@code response_match_score} computes it through the {@code rouge_score}
 * package: text lower-cased, every run of characters other than {@code [a-z0-9]} made a space,
 * split on white space, tokens longer than three characters Porter-stemmed (NLTK's stemmer) when
 * both texts are mostly Latin script, empty tokens dropped; then unigram counts are intersected.
 */
final class Rouge {
  private Rouge() {}

  private static final Pattern NON_ALPHANUMERIC = Pattern.compile("[^a-z0-9]+");
  private static final Pattern SPACES = Pattern.compile("\\s+");

  /** Precision, recall and F-measure of one comparison. */
  record Score(double precision, double recall, double fmeasure) {}

  static List<String> tokenize(String text, boolean stem) {
    String lowered = NON_ALPHANUMERIC.matcher(text.toLowerCase(Locale.ROOT)).replaceAll(" ");
    List<String> out = new ArrayList<>();
    for (String t : SPACES.split(lowered)) {
      if (t.isEmpty()) {
        continue;
      }
      out.add(stem && t.length() > 3 ? PorterStemmer.stem(t) : t);
    }
    return out;
  }

  /**
   * ADK's test for applying the stemmer: more than half of the letters (Unicode category L) have
   * "LATIN" in their Unicode name; a text without letters counts as Latin.
   */
  static boolean latin(String text) {
    int letters = 0;
    int latin = 0;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      i += Character.charCount(cp);
      if (Character.isLetter(cp)) {
        letters++;
        String name = Character.getName(cp);
        if (name != null && name.contains("LATIN")) {
          latin++;
        }
      }
    }
    return letters == 0 || (double) latin / letters > 0.5;
  }

  /** ROUGE-1 of {@code candidate} (the agent's answer) against {@code reference}. */
  static Score rouge1(String candidate, String reference) {
    boolean stem = latin(candidate) && latin(reference);
    Map<String, Integer> ref = counts(tokenize(reference, stem));
    Map<String, Integer> cand = counts(tokenize(candidate, stem));
    int refTotal = ref.values().stream().mapToInt(Integer::intValue).sum();
    int candTotal = cand.values().stream().mapToInt(Integer::intValue).sum();
    int overlap = 0;
    for (Map.Entry<String, Integer> e : cand.entrySet()) {
      overlap += Math.min(e.getValue(), ref.getOrDefault(e.getKey(), 0));
    }
    double precision = overlap / (double) Math.max(candTotal, 1);
    double recall = overlap / (double) Math.max(refTotal, 1);
    double f = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0.0;
    return new Score(precision, recall, f);
  }

  private static Map<String, Integer> counts(List<String> tokens) {
    Map<String, Integer> m = new HashMap<>();
    tokens.forEach(t -> m.merge(t, 1, Integer::sum));
    return m;
  }
}
