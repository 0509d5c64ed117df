package dev.adk4j.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The code in the docs is code of the project. In {@code docs/state.md}, each block after a {@code
 * <!-- snippet: File.java#tag -->} marker must equal the region between {@code // tag::tag[]} and
 * {@code // end::tag[]} of that example (indentation removed). In {@code README.md}, each block
 * after a {@code <!-- snippet-file: path -->} marker must equal that whole file (a test, run by the
 * suite) but for its package line. Change the code, then copy it into the doc.
 */
class DocsSnippetsTest {

  private static final Pattern SNIPPET =
      Pattern.compile("<!-- snippet: (\\S+?)#(\\S+) -->\\s*```java\\n(.*?)\\n```", Pattern.DOTALL);

  private static final Pattern FILE_SNIPPET =
      Pattern.compile("<!-- snippet-file: (\\S+) -->\\s*```java\\n(.*?)\\n```", Pattern.DOTALL);

  @Test
  void readmeSnippets_areWholeTestFilesOfTheProject() throws IOException {
    Path root = Path.of("").toAbsolutePath().getParent();
    String readme = Files.readString(root.resolve("README.md"));
    Matcher m = FILE_SNIPPET.matcher(readme);
    int count = 0;
    while (m.find()) {
      count++;
      String source = Files.readString(root.resolve(m.group(1)));
      assertThat(source).as("%s", m.group(1)).startsWith("package ");
      String withoutPackage = source.substring(source.indexOf(";\n") + 2).strip();
      assertThat(m.group(2)).as("snippet of %s in README.md", m.group(1)).isEqualTo(withoutPackage);
    }
    assertThat(count).as("snippet-file blocks in README.md").isGreaterThanOrEqualTo(1);
  }

  @Test
  void stateGuideSnippets_matchTheExamplesSource() throws IOException {
    assertThat(checkSnippets("docs/state.md"))
        .as("snippets in docs/state.md")
        .isGreaterThanOrEqualTo(8);
  }

  @Test
  void compositionGuideSnippets_matchTheExamplesSource() throws IOException {
    assertThat(checkSnippets("docs/composition.md"))
        .as("snippets in docs/composition.md")
        .isGreaterThanOrEqualTo(1);
  }

  /** Checks every snippet of the doc at {@code path} against its example; returns their number. */
  private static int checkSnippets(String path) throws IOException {
    Path module = Path.of("").toAbsolutePath();
    Path doc = module.getParent().resolve(path);
    String text = Files.readString(doc);
    Matcher m = SNIPPET.matcher(text);
    int count = 0;
    while (m.find()) {
      count++;
      Path source = module.resolve("src/main/java/dev/adk4j/examples").resolve(m.group(1));
      assertThat(m.group(3))
          .as("snippet %s#%s in %s", m.group(1), m.group(2), path)
          .isEqualTo(region(Files.readAllLines(source), m.group(2)));
    }
    return count;
  }

  static String region(List<String> lines, String tag) {
    int start = lines.indexOf(findLine(lines, "// tag::" + tag + "[]"));
    int end = lines.indexOf(findLine(lines, "// end::" + tag + "[]"));
    List<String> body = new ArrayList<>(lines.subList(start + 1, end));
    int indent = Integer.MAX_VALUE;
    for (String l : body) {
      if (!l.isBlank()) {
        indent = Math.min(indent, l.length() - l.stripLeading().length());
      }
    }
    List<String> out = new ArrayList<>();
    for (String l : body) {
      out.add(l.isBlank() ? "" : l.substring(indent));
    }
    return String.join("\n", out);
  }

  private static String findLine(List<String> lines, String marker) {
    for (String l : lines) {
      if (l.strip().equals(marker)) {
        return l;
      }
    }
    throw new AssertionError("no line " + marker);
  }
}
