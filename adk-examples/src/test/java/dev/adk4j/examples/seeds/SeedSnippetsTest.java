package dev.adk4j.examples.seeds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java snippets of the state documentation the product was specified from ({@code
 * ../shared/seeds/002_*.txt}) compile against adk4j once {@code com.google.adk} becomes {@code
 * dev.adk4j}, and the one that needs no model runs as documented. The snippets are read from the
 * seeds at test time, not copied into the project.
 */
class SeedSnippetsTest {

  private static final Pattern CLASS = Pattern.compile("^public class (\\w+)");

  @TempDir Path work;

  @Test
  void javaSnippetsOfTheStateDocs_compileAndTheManualUpdateOneRuns() throws Exception {
    Path seed = findSeed();
    assumeTrue(seed != null, "../shared/seeds is not beside the project; nothing to compile");
    Map<String, String> snippets = extractJavaSnippets(Files.readString(seed));
    assertThat(snippets)
        .containsKeys("GreetingAgentExample", "ManualStateUpdateExample", "MyAgentCallbacks");

    List<Path> sources = new ArrayList<>();
    for (Map.Entry<String, String> e : snippets.entrySet()) {
      Path file = work.resolve(e.getKey() + ".java");
      Files.writeString(file, e.getValue().replace("com.google.adk.", "dev.adk4j."));
      sources.add(file);
    }
    Path classes = Files.createDirectories(work.resolve("classes"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, null)) {
      boolean ok =
          javac
              .getTask(
                  null,
                  files,
                  diagnostics,
                  List.of(
                      "-classpath",
                      System.getProperty("java.class.path"),
                      "-d",
                      classes.toString()),
                  null,
                  files.getJavaFileObjectsFromPaths(sources))
              .call();
      assertThat(ok).as("snippets compile: %s", diagnostics.getDiagnostics()).isTrue();
    }

    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
      Method main = loader.loadClass("ManualStateUpdateExample").getMethod("main", String[].class);
      String out = captureStdout(() -> main.invoke(null, (Object) new String[0]));
      String after = out.substring(out.indexOf("State after event:"));
      assertThat(after)
          .contains("task_status=active")
          .contains("user:login_count=1")
          .contains("user:last_login_ts=")
          .doesNotContain("temp:validation_needed");
    }
  }

  /** Each {@code public class} with the imports and comments right above it, braces balanced. */
  static Map<String, String> extractJavaSnippets(String text) {
    String[] lines = text.split("\n", -1);
    Map<String, String> snippets = new LinkedHashMap<>();
    for (int i = 0; i < lines.length; i++) {
      Matcher m = CLASS.matcher(lines[i]);
      if (!m.find()) {
        continue;
      }
      int start = i;
      while (start > 0 && lines[start - 1].matches("^(import |//).*|^\\s*$")) {
        start--;
      }
      int depth = 0;
      int end = i;
      boolean opened = false;
      for (; end < lines.length; end++) {
        for (char c : lines[end].toCharArray()) {
          if (c == '{') {
            depth++;
            opened = true;
          } else if (c == '}') {
            depth--;
          }
        }
        if (opened && depth == 0) {
          break;
        }
      }
      StringBuilder sb = new StringBuilder();
      for (int k = start; k <= end && k < lines.length; k++) {
        sb.append(lines[k]).append('\n');
      }
      snippets.put(m.group(1), sb.toString());
    }
    return snippets;
  }

  private static Path findSeed() throws IOException {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path seeds = dir.resolve("shared").resolve("seeds");
      if (Files.isDirectory(seeds)) {
        try (Stream<Path> files = Files.list(seeds)) {
          return files
              .filter(p -> p.getFileName().toString().startsWith("002_"))
              .findFirst()
              .orElse(null);
        }
      }
    }
    return null;
  }

  interface Action {
    void run() throws Exception;
  }

  private static String captureStdout(Action action) throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      action.run();
    } finally {
      System.setOut(original);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
