package dev.adk4j.internal;

/**
 * Small string helpers for bounds and messages: the UTF-8 length of a string without encoding it,
 * and names quoted for an error message, cut when long so that a hostile name cannot make a message
 * of megabytes.
 */
public final class Text {
  private Text() {}

  /** Names longer than this are cut in messages. */
  static final int QUOTE_CHARS = 100;

  /**
   * The length of {@code s} in UTF-8, in bytes, without encoding it (an unpaired surrogate counts 3
   * bytes, as the longest replacement an encoder may write).
   */
  public static long utf8Length(String s) {
    long n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n++;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }

  /**
   * Whether {@code s} is longer than {@code maxBytes} in UTF-8. Cheap for short strings: a string
   * of at most {@code maxBytes / 3} characters cannot be.
   */
  public static boolean longerThan(String s, int maxBytes) {
    return s.length() > maxBytes / 3 && utf8Length(s) > maxBytes;
  }

  /**
   * {@code s} in single quotes for a message; a long one is cut after {@value #QUOTE_CHARS}
   * characters and its length given, as in {@code 'aaaa…' (50001 characters)}.
   */
  public static String quote(String s) {
    if (s.length() <= QUOTE_CHARS) {
      return "'" + s + "'";
    }
    int end = QUOTE_CHARS;
    if (Character.isHighSurrogate(s.charAt(end - 1))) {
      end--;
    }
    return "'" + s.substring(0, end) + "…' (" + s.length() + " characters)";
  }
}
