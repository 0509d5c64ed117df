package dev.adk4j.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every module with {@code @NullMarked} main code is null-checked: its {@code src/main/java} is one
 * of adk-nullaway's source roots, or its own POM runs the root POM's {@code nullaway} execution
 * (the Spring modules). A new module is not checked until it is added to one or the other, and
 * nothing else would say so.
 */
class NullAwayCoverageTest {

  @Test
  void everyNullMarkedModule_isNullChecked() {
    Path root = Path.of("").toAbsolutePath().getParent();

    assertThat(unchecked(root)).as("modules with @NullMarked code that NullAway skips").isEmpty();
    assertThat(nullMarked(root)).contains("adk-core", "adk-sessions", "adk-examples");
    assertThat(staleRoots(root)).as("adk-nullaway's source roots that do not exist").isEmpty();
  }

  @Test
  void aModuleNobodyChecks_isReported(@TempDir Path root) throws IOException {
    Files.writeString(
        root.resolve("pom.xml"),
        "<modules><module>a</module><module>b</module><module>c</module>"
            + "<module>adk-nullaway</module></modules>");
    write(root.resolve("a/src/main/java/x/a/package-info.java"), "@NullMarked\npackage x.a;");
    write(root.resolve("b/src/main/java/x/b/package-info.java"), "@NullMarked\npackage x.b;");
    write(root.resolve("b/pom.xml"), "<execution><id>nullaway</id></execution>");
    write(root.resolve("c/src/main/java/x/c/package-info.java"), "@NullMarked\npackage x.c;");
    write(
        root.resolve("adk-nullaway/pom.xml"),
        "<root>${project.basedir}/../a/src/main/java</root>"
            + "<root>${project.basedir}/../gone/src/main/java</root>");

    assertThat(unchecked(root)).containsExactly("c");
    assertThat(staleRoots(root)).containsExactly("gone");
  }

  /** Modules whose main code has a {@code @NullMarked} package-info. */
  static Set<String> nullMarked(Path root) {
    Set<String> out = new TreeSet<>();
    for (Path module : NoSplitPackagesTest.modules(root)) {
      Path src = module.resolve("src/main/java");
      if (Files.isDirectory(src) && hasNullMarkedPackage(src)) {
        out.add(root.relativize(module).toString().replace('\\', '/'));
      }
    }
    return out;
  }

  static Set<String> unchecked(Path root) {
    String aggregate = read(root.resolve("adk-nullaway/pom.xml"));
    Set<String> out = new TreeSet<>();
    for (String module : nullMarked(root)) {
      boolean inAggregate = aggregate.contains("/../" + module + "/src/main/java</root>");
      boolean ownExecution =
          read(root.resolve(module).resolve("pom.xml")).contains("<id>nullaway</id>");
      if (!inAggregate && !ownExecution) {
        out.add(module);
      }
    }
    return out;
  }

  static Set<String> staleRoots(Path root) {
    Set<String> out = new TreeSet<>();
    Matcher m =
        Pattern.compile("<root>\\$\\{project\\.basedir}/\\.\\./([^/<]+)/src/main/java</root>")
            .matcher(read(root.resolve("adk-nullaway/pom.xml")));
    while (m.find()) {
      if (!Files.isDirectory(root.resolve(m.group(1)).resolve("src/main/java"))) {
        out.add(m.group(1));
      }
    }
    return out;
  }

  private static boolean hasNullMarkedPackage(Path src) {
    try (Stream<Path> files = Files.walk(src)) {
      return files
          .filter(f -> f.getFileName().toString().equals("package-info.java"))
          .anyMatch(f -> read(f).contains("@NullMarked"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.isRegularFile(file) ? Files.readString(file) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}
