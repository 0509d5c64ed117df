package dev.adk4j.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the imports of an ADK for Java source into adk4j's: {@code com.google.adk.} becomes {@code
 * dev.adk4j.}, except for the types listed in the import table of {@code
 * docs/migrating-from-adk-java.md}, which map to the adk4j name the table gives. Only import lines
 * change; a mapped type's nested types and static members follow it.
 */
final class AdkImports {

  static final String ADK = "com.google.adk.";
  static final String ADK4J = "dev.adk4j.";

  /** A row of the import table: {@code | `com.google.adk.X` | `dev.adk4j.Y` | ...}. */
  private static final Pattern ROW =
      Pattern.compile(
          "^\\|\\s*`(com\\.google\\.adk\\.[\\w.]+)`\\s*\\|\\s*`(dev\\.adk4j\\.[\\w.]+)`\\s*\\|",
          Pattern.MULTILINE);

  private static final Pattern IMPORT =
      Pattern.compile(
          "^(\\s*import\\s+(?:static\\s+)?)(com\\.google\\.adk\\.[\\w.]*\\w)(\\.\\*)?(\\s*;)",
          Pattern.MULTILINE);

  private final Map<String, String> moved;

  AdkImports(Map<String, String> moved) {
    this.moved = Collections.unmodifiableMap(new LinkedHashMap<>(moved));
  }

  /** The exceptions listed in the import table of the migration guide. */
  static AdkImports fromGuide(Path guide) throws IOException {
    Map<String, String> moved = new LinkedHashMap<>();
    Matcher m = ROW.matcher(Files.readString(guide));
    while (m.find()) {
      if (moved.put(m.group(1), m.group(2)) != null) {
        throw new IllegalStateException(guide + " lists " + m.group(1) + " twice");
      }
    }
    return new AdkImports(moved);
  }

  /** ADK type name to adk4j type name, for the types that do not just change prefix. */
  Map<String, String> moved() {
    return moved;
  }

  /** {@code source} with every {@code com.google.adk} import translated; nothing else changes. */
  String translate(String source) {
    Matcher m = IMPORT.matcher(source);
    StringBuilder out = new StringBuilder(source.length());
    while (m.find()) {
      String star = m.group(3) == null ? "" : m.group(3);
      m.appendReplacement(
          out,
          Matcher.quoteReplacement(m.group(1) + translateName(m.group(2)) + star + m.group(4)));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** The adk4j name of an ADK type, nested type, static member or package. */
  String translateName(String adkName) {
    if (!adkName.startsWith(ADK)) {
      throw new IllegalArgumentException("not an ADK for Java name: " + adkName);
    }
    String best = null;
    for (String from : moved.keySet()) {
      if ((adkName.equals(from) || adkName.startsWith(from + "."))
          && (best == null || from.length() > best.length())) {
        best = from;
      }
    }
    return best == null
        ? ADK4J + adkName.substring(ADK.length())
        : moved.get(best) + adkName.substring(best.length());
  }
}
