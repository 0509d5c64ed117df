package dev.adk4j.agents;

import dev.adk4j.state.State;
import org.jspecify.annotations.Nullable;

/**
 * A placeholder of an instruction template, as {@link InstructionUtils} parses the text between
 * braces: a state key (its prefix included, dotted for nested values) or an artifact name, either
 * one optional with a trailing {@code ?}.
 */
final class Placeholder {
  final String name;
  final boolean artifact;
  final boolean optional;

  private Placeholder(String name, boolean artifact, boolean optional) {
    this.name = name;
    this.artifact = artifact;
    this.optional = optional;
  }

  /** Parses {@code s[from, to)}, the text between the braces; null if it is not a placeholder. */
  static @Nullable Placeholder parse(String s, int from, int to) {
    while (from < to && Character.isWhitespace(s.charAt(from))) {
      from++;
    }
    while (to > from && Character.isWhitespace(s.charAt(to - 1))) {
      to--;
    }
    boolean optional = false;
    if (to > from && s.charAt(to - 1) == '?') {
      optional = true;
      to--;
    }
    if (from == to) {
      return null;
    }
    if (s.startsWith(InstructionUtils.ARTIFACT_PREFIX, from)
        && to > from + InstructionUtils.ARTIFACT_PREFIX.length()) {
      int start = from + InstructionUtils.ARTIFACT_PREFIX.length();
      return isArtifactName(s, start, to)
          ? new Placeholder(s.substring(start, to), true, optional)
          : null;
    }
    int start = from;
    for (String prefix :
        new String[] {
          State.APP_PREFIX, State.USER_PREFIX, State.TEMP_PREFIX, State.SECRET_PREFIX
        }) {
      if (s.startsWith(prefix, from)) {
        start = from + prefix.length();
        break;
      }
    }
    return isDottedIdentifier(s, start, to)
        ? new Placeholder(s.substring(from, to), false, optional)
        : null;
  }

  /** {@code [A-Za-z_][A-Za-z0-9_]*} joined by single dots, over {@code s[from, to)}. */
  private static boolean isDottedIdentifier(String s, int from, int to) {
    if (from == to) {
      return false;
    }
    boolean segmentStart = true;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (segmentStart) {
        if (!isIdentifierStart(c)) {
          return false;
        }
        segmentStart = false;
      } else if (c == '.') {
        segmentStart = true;
      } else if (!isIdentifierStart(c) && !(c >= '0' && c <= '9')) {
        return false;
      }
    }
    return !segmentStart;
  }

  /** An optional {@code user:}, then one or more of {@code [A-Za-z0-9_.\-/]}. */
  private static boolean isArtifactName(String s, int from, int to) {
    int start = s.startsWith(State.USER_PREFIX, from) ? from + State.USER_PREFIX.length() : from;
    if (start >= to) {
      return false;
    }
    for (int i = start; i < to; i++) {
      char c = s.charAt(i);
      boolean ok =
          isIdentifierStart(c) || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '/';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private static boolean isIdentifierStart(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
  }
}
