package dev.adk4j.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A package lives in exactly one module of the reactor: no package has main classes (built, in
 * {@code target/classes}) or main sources ({@code src/main/java}) in two modules. Split packages
 * break the module path and make the import table of the migration guide ambiguous.
 */
class NoSplitPackagesTest {

  private static final Pattern MODULE = Pattern.compile("<module>\\s*([^<\\s]+)\\s*</module>");

  @Test
  void everyPackage_livesInOneModule() {
    Path root = Path.of("").toAbsolutePath().getParent();
    Map<String, Set<String>> modules = modulesByPackage(root);

    assertThat(modules)
        .as("packages of the reactor")
        .containsKeys(
            "dev.adk4j.state",
            "dev.adk4j.sessions",
            "dev.adk4j.agents",
            "dev.adk4j.runner",
            "dev.adk4j.examples");
    assertThat(modules.get("dev.adk4j.agents")).containsExactly("adk-agents");
    assertThat(splits(modules)).as("packages found in more than one module").isEmpty();
  }

  @Test
  void aPackageInTwoModules_isReported_fromClassesOrSources(@TempDir Path root) throws IOException {
    Files.writeString(
        root.resolve("pom.xml"), "<modules><module>a</module><module>b</module></modules>");
    touch(root.resolve("a/target/classes/x/shared/One.class"));
    touch(root.resolve("a/target/classes/x/only/a/Two.class"));
    touch(root.resolve("b/src/main/java/x/shared/Three.java"));
    touch(root.resolve("b/src/main/java/x/only/b/Four.java"));

    assertThat(splits(modulesByPackage(root)))
        .isEqualTo(Map.of("x.shared", new TreeSet<>(List.of("a", "b"))));
  }

  /** For each package of main code, the modules (paths relative to the root) that hold it. */
  static Map<String, Set<String>> modulesByPackage(Path root) {
    Map<String, Set<String>> out = new TreeMap<>();
    for (Path module : modules(root)) {
      String name = root.relativize(module).toString().replace('\\', '/');
      for (Path dir : List.of(module.resolve("target/classes"), module.resolve("src/main/java"))) {
        for (String pkg : packages(dir)) {
          out.computeIfAbsent(pkg, p -> new TreeSet<>()).add(name);
        }
      }
    }
    return out;
  }

  private static Map<String, Set<String>> splits(Map<String, Set<String>> modules) {
    Map<String, Set<String>> out = new TreeMap<>();
    modules.forEach(
        (pkg, in) -> {
          if (in.size() > 1) {
            out.put(pkg, in);
          }
        });
    return out;
  }

  /** The modules listed in {@code dir}'s pom.xml, and theirs, depth first. */
  static List<Path> modules(Path dir) {
    List<Path> out = new ArrayList<>();
    Path pom = dir.resolve("pom.xml");
    if (!Files.isRegularFile(pom)) {
      return out;
    }
    try {
      Matcher m = MODULE.matcher(Files.readString(pom));
      while (m.find()) {
        Path module = dir.resolve(m.group(1)).normalize();
        out.add(module);
        out.addAll(modules(module));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** Packages (dotted) of the directories under {@code dir} holding a class or Java source. */
  private static Set<String> packages(Path dir) {
    Set<String> out = new TreeSet<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files
          .filter(f -> f.toString().endsWith(".class") || f.toString().endsWith(".java"))
          .filter(f -> !f.getFileName().toString().startsWith("module-info."))
          .map(f -> dir.relativize(f.getParent()).toString().replace('\\', '/'))
          .filter(p -> !p.isEmpty() && !p.startsWith("META-INF"))
          .forEach(p -> out.add(p.replace('/', '.')));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static void touch(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, "");
  }
}
