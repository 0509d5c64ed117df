package dev.adk4j.internal.artifacts;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The one rule for artifact file names, applied by every artifact service, by the contexts that
 * save and load artifacts and by {@code {artifact.name}} placeholders, so that no name can reach
 * outside its app, user and session whatever an artifact service does with it (a folder, an object
 * key, a URL).
 *
 * <p>A name is an optional {@code user:} prefix (the file is the user's, shared by their sessions)
 * followed by a relative path: one or more segments separated by {@code /}, at most {@value
 * #MAX_LENGTH} characters in all. A segment is not empty, {@code .} or {@code ..}; no character is
 * a control character or a backslash. So {@code report.pdf}, {@code user:notes/2026 q1.md} are
 * names; {@code ../x}, {@code /etc/passwd}, {@code a//b}, {@code a\b}, {@code user:} are not.
 */
public final class ArtifactNames {

  /** The longest name, prefix included. */
  public static final int MAX_LENGTH = 512;

  private static final String USER_PREFIX = "user:";

  private ArtifactNames() {}

  /** Whether {@code name} is a valid artifact file name. */
  public static boolean isValid(@Nullable String name) {
    return problem(name) == null;
  }

  /**
   * Returns {@code name} if it is a valid artifact file name.
   *
   * @throws IllegalArgumentException saying what is wrong with it
   */
  public static String check(@Nullable String name) {
    String problem = problem(name);
    if (problem != null) {
      throw new IllegalArgumentException(
          "Invalid artifact name "
              + (name == null ? "null" : "'" + printable(name) + "'")
              + ": "
              + problem);
    }
    return Objects.requireNonNull(name, "problem() refuses null");
  }

  private static @Nullable String problem(@Nullable String name) {
    if (name == null) {
      return "it is null";
    }
    if (name.length() > MAX_LENGTH) {
      return "it is " + name.length() + " characters long, over " + MAX_LENGTH;
    }
    String path = name.startsWith(USER_PREFIX) ? name.substring(USER_PREFIX.length()) : name;
    if (path.isEmpty()) {
      return "it has no file name";
    }
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        return "it contains the control character U+" + String.format("%04X", (int) c);
      }
      if (c == '\\') {
        return "it contains a backslash (separate folders with '/')";
      }
    }
    if (path.startsWith("/")) {
      return "it starts with '/' (names are relative to their session)";
    }
    for (String segment : path.split("/", -1)) {
      if (segment.isEmpty()) {
        return "it has an empty path segment";
      }
      if (segment.equals(".") || segment.equals("..")) {
        return "it has a '" + segment + "' path segment";
      }
    }
    return null;
  }

  private static String printable(String name) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < name.length() && i < 80; i++) {
      char c = name.charAt(i);
      out.append(c < 0x20 || c == 0x7f ? '?' : c);
    }
    return name.length() > 80 ? out + "..." : out.toString();
  }
}
