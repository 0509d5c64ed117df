package dev.adk4j.eval;

import java.util.Map;

/**
 * The Porter stemmer as NLTK's {@code PorterStemmer()} runs it by default (its {@code
 * NLTK_EXTENSIONS} mode), which is the stemmer the {@code rouge_score} package, and so ADK's
 * response match, uses. Written from the published algorithm (M.F. Porter, 1980) and the list of
 * NLTK's documented departures from it: a pool of irregular forms, words of one or two letters left
 * alone, {@code ies}/{@code ied} of four-letter words, {@code y -> i} only after a consonant that
 * is not the first letter, {@code alli} first, {@code bli -> ble}, {@code fulli -> ful} and {@code
 * logi -> log}. Checked word by word against NLTK 3.10 (see {@code RougeTest}).
 *
 * <p>Stateless and thread-safe; input is expected in lower case.
 */
final class PorterStemmer {
  private PorterStemmer() {}

  private static final Map<String, String> POOL =
      Map.ofEntries(
          Map.entry("sky", "sky"),
          Map.entry("skies", "sky"),
          Map.entry("dying", "die"),
          Map.entry("lying", "lie"),
          Map.entry("tying", "tie"),
          Map.entry("news", "news"),
          Map.entry("innings", "inning"),
          Map.entry("inning", "inning"),
          Map.entry("outings", "outing"),
          Map.entry("outing", "outing"),
          Map.entry("cannings", "canning"),
          Map.entry("canning", "canning"),
          Map.entry("howe", "howe"),
          Map.entry("proceed", "proceed"),
          Map.entry("exceed", "exceed"),
          Map.entry("succeed", "succeed"));

  /** A condition on the stem left when a suffix is taken off. */
  private interface Condition {
    boolean test(String stem);
  }

  private record Rule(String suffix, String replacement, Condition condition) {}

  private static final Condition ALWAYS = s -> true;
  private static final Condition M_GT_0 = s -> measure(s) > 0;
  private static final Condition M_GT_1 = s -> measure(s) > 1;

  static String stem(String word) {
    String w = word.toLowerCase(java.util.Locale.ROOT);
    String pooled = POOL.get(w);
    if (pooled != null) {
      return pooled;
    }
    if (w.length() <= 2) {
      return w;
    }
    w = step1a(w);
    w = step1b(w);
    w = step1c(w);
    w = step2(w);
    w = step3(w);
    w = step4(w);
    w = step5a(w);
    w = step5b(w);
    return w;
  }

  private static boolean consonant(String w, int i) {
    char c = w.charAt(i);
    if (c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u') {
      return false;
    }
    if (c == 'y') {
      return i == 0 || !consonant(w, i - 1);
    }
    return true;
  }

  /** m in [C](VC)^m[V]: the number of vowel-consonant sequences. */
  static int measure(String s) {
    int m = 0;
    boolean previousVowel = false;
    for (int i = 0; i < s.length(); i++) {
      boolean c = consonant(s, i);
      if (c && previousVowel) {
        m++;
      }
      previousVowel = !c;
    }
    return m;
  }

  private static boolean containsVowel(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (!consonant(s, i)) {
        return true;
      }
    }
    return false;
  }

  private static boolean endsDoubleConsonant(String w) {
    int n = w.length();
    return n >= 2 && w.charAt(n - 1) == w.charAt(n - 2) && consonant(w, n - 1);
  }

  private static boolean endsCvc(String w) {
    int n = w.length();
    if (n >= 3
        && consonant(w, n - 3)
        && !consonant(w, n - 2)
        && consonant(w, n - 1)
        && "wxy".indexOf(w.charAt(n - 1)) < 0) {
      return true;
    }
    return n == 2 && !consonant(w, 0) && consonant(w, 1);
  }

  private static String cut(String w, String suffix) {
    return w.substring(0, w.length() - suffix.length());
  }

  /** The first rule whose suffix matches decides, whether or not its condition holds. */
  private static String apply(String w, Rule... rules) {
    for (Rule r : rules) {
      if (r.suffix.equals("*d")) {
        if (endsDoubleConsonant(w)) {
          String stem = w.substring(0, w.length() - 2);
          return r.condition.test(stem) ? stem + r.replacement : w;
        }
        continue;
      }
      if (w.endsWith(r.suffix)) {
        String stem = cut(w, r.suffix);
        return r.condition.test(stem) ? stem + r.replacement : w;
      }
    }
    return w;
  }

  private static String step1a(String w) {
    if (w.endsWith("ies") && w.length() == 4) {
      return cut(w, "ies") + "ie";
    }
    return apply(
        w,
        new Rule("sses", "ss", ALWAYS),
        new Rule("ies", "i", ALWAYS),
        new Rule("ss", "ss", ALWAYS),
        new Rule("s", "", ALWAYS));
  }

  private static String step1b(String w) {
    if (w.endsWith("ied")) {
      return w.length() == 4 ? cut(w, "ied") + "ie" : cut(w, "ied") + "i";
    }
    if (w.endsWith("eed")) {
      String stem = cut(w, "eed");
      return measure(stem) > 0 ? stem + "ee" : w;
    }
    String stem = null;
    for (String suffix : new String[] {"ed", "ing"}) {
      if (w.endsWith(suffix)) {
        String s = cut(w, suffix);
        if (containsVowel(s)) {
          stem = s;
          break;
        }
      }
    }
    if (stem == null) {
      return w;
    }
    String last = stem.substring(stem.length() - 1);
    String st = stem;
    return apply(
        stem,
        new Rule("at", "ate", ALWAYS),
        new Rule("bl", "ble", ALWAYS),
        new Rule("iz", "ize", ALWAYS),
        new Rule("*d", last, s -> !"lsz".contains(last)),
        new Rule("", "e", s -> measure(st) == 1 && endsCvc(st)));
  }

  private static String step1c(String w) {
    return apply(w, new Rule("y", "i", s -> s.length() > 1 && consonant(s, s.length() - 1)));
  }

  private static String step2(String w) {
    if (w.endsWith("alli") && measure(cut(w, "alli")) > 0) {
      return step2(cut(w, "alli") + "al");
    }
    String word = w;
    return apply(
        w,
        new Rule("ational", "ate", M_GT_0),
        new Rule("tional", "tion", M_GT_0),
        new Rule("enci", "ence", M_GT_0),
        new Rule("anci", "ance", M_GT_0),
        new Rule("izer", "ize", M_GT_0),
        new Rule("bli", "ble", M_GT_0),
        new Rule("alli", "al", M_GT_0),
        new Rule("entli", "ent", M_GT_0),
        new Rule("eli", "e", M_GT_0),
        new Rule("ousli", "ous", M_GT_0),
        new Rule("ization", "ize", M_GT_0),
        new Rule("ation", "ate", M_GT_0),
        new Rule("ator", "ate", M_GT_0),
        new Rule("alism", "al", M_GT_0),
        new Rule("iveness", "ive", M_GT_0),
        new Rule("fulness", "ful", M_GT_0),
        new Rule("ousness", "ous", M_GT_0),
        new Rule("aliti", "al", M_GT_0),
        new Rule("iviti", "ive", M_GT_0),
        new Rule("biliti", "ble", M_GT_0),
        new Rule("fulli", "ful", M_GT_0),
        // the l of logi stays with the stem, so geo-/theo- stems qualify
        new Rule("logi", "log", s -> measure(word.substring(0, word.length() - 3)) > 0));
  }

  private static String step3(String w) {
    return apply(
        w,
        new Rule("icate", "ic", M_GT_0),
        new Rule("ative", "", M_GT_0),
        new Rule("alize", "al", M_GT_0),
        new Rule("iciti", "ic", M_GT_0),
        new Rule("ical", "ic", M_GT_0),
        new Rule("ful", "", M_GT_0),
        new Rule("ness", "", M_GT_0));
  }

  private static String step4(String w) {
    return apply(
        w,
        new Rule("al", "", M_GT_1),
        new Rule("ance", "", M_GT_1),
        new Rule("ence", "", M_GT_1),
        new Rule("er", "", M_GT_1),
        new Rule("ic", "", M_GT_1),
        new Rule("able", "", M_GT_1),
        new Rule("ible", "", M_GT_1),
        new Rule("ant", "", M_GT_1),
        new Rule("ement", "", M_GT_1),
        new Rule("ment", "", M_GT_1),
        new Rule("ent", "", M_GT_1),
        new Rule(
            "ion",
            "",
            s -> measure(s) > 1 && !s.isEmpty() && "st".indexOf(s.charAt(s.length() - 1)) >= 0),
        new Rule("ou", "", M_GT_1),
        new Rule("ism", "", M_GT_1),
        new Rule("ate", "", M_GT_1),
        new Rule("iti", "", M_GT_1),
        new Rule("ous", "", M_GT_1),
        new Rule("ive", "", M_GT_1),
        new Rule("ize", "", M_GT_1));
  }

  private static String step5a(String w) {
    if (w.endsWith("e")) {
      String stem = cut(w, "e");
      int m = measure(stem);
      if (m > 1 || (m == 1 && !endsCvc(stem))) {
        return stem;
      }
    }
    return w;
  }

  private static String step5b(String w) {
    return apply(w, new Rule("ll", "l", s -> measure(w.substring(0, w.length() - 1)) > 1));
  }
}
