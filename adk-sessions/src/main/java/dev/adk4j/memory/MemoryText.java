package dev.adk4j.memory;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** What every memory service shares: which events are remembered, their text and words. */
final class MemoryText {
  private MemoryText() {}

  /** The number of matches a search returns unless the service is given another limit. */
  static final int DEFAULT_MAX_RESULTS = 100;

  /** A word: a run of letters and digits (any script). */
  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");

  /** The joined non-thought text parts of {@code content}; empty if it has none. */
  static String textOf(@Nullable Content content) {
    if (content == null || content.parts().isEmpty()) {
      return "";
    }
    StringBuilder b = new StringBuilder();
    for (Part p : content.parts().get()) {
      if (p.thought().orElse(false)) {
        continue;
      }
      String text = p.text().orElse("");
      if (!text.isEmpty()) {
        if (b.length() > 0) {
          b.append('\n');
        }
        b.append(text);
      }
    }
    return b.toString();
  }

  /** The distinct words of {@code text}, lower case, in order of first appearance. */
  static Set<String> words(String text) {
    Set<String> words = new LinkedHashSet<>();
    Matcher m = WORD.matcher(text);
    while (m.find()) {
      words.add(m.group().toLowerCase(Locale.ROOT));
    }
    return words;
  }

  /**
   * The text to remember of {@code event}, or null if it is not remembered: partial events and
   * events without a word in their text are not.
   */
  static @Nullable String rememberedText(Event event) {
    if (event.partial().orElse(false) || event.content().isEmpty()) {
      return null;
    }
    String text = textOf(event.content().get());
    return WORD.matcher(text).find() ? text : null;
  }

  /** The event's time as a memory shows it: ISO 8601. */
  static String timestamp(long epochMillis) {
    return Instant.ofEpochMilli(epochMillis).toString();
  }

  /**
   * Checks an app name or user id as the session services do.
   *
   * @throws NullPointerException if it is null
   * @throws IllegalArgumentException if it is empty or blank
   */
  static String checkId(@Nullable String id, String name) {
    Objects.requireNonNull(id, name + " must not be null");
    if (id.isBlank()) {
      throw new IllegalArgumentException(
          name + " must not be " + (id.isEmpty() ? "empty" : "blank, got '" + id + "'"));
    }
    return id;
  }

  /**
   * @throws IllegalArgumentException if {@code maxResults} is below 1
   */
  static int checkMaxResults(int maxResults) {
    if (maxResults < 1) {
      throw new IllegalArgumentException("maxResults must be at least 1, got " + maxResults);
    }
    return maxResults;
  }
}
