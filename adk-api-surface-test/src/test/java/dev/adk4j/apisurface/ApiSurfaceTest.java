package dev.adk4j.apisurface;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.adk4j.AdkException;
import dev.adk4j.agents.ReadonlyContext;
import dev.adk4j.artifacts.BaseArtifactService;
import dev.adk4j.sessions.BaseSessionService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The library's public surface, declared and checked (see {@code docs/public-api.md}):
 *
 * <ul>
 *   <li>the public top-level types outside {@code dev.adk4j.internal} are exactly the ones the page
 *       lists, so a new public type is a decision that gets documented (the test prints their share
 *       of the source files);
 *   <li>every package is {@code @NullMarked};
 *   <li>every exception adk4j defines extends {@link AdkException};
 *   <li>{@code Optional} is a return type only (never a field, never a parameter, except ADK's own
 *       {@code getSession(..., Optional<GetSessionConfig>)}), and never {@code @Nullable};
 *   <li>no public method or field hands out Jackson's mutable {@link ObjectMapper}.
 * </ul>
 */
class ApiSurfaceTest {

  /** The published library modules; the examples, benchmarks and test-only code are not API. */
  private static final List<String> LIBRARY_MODULES =
      List.of(
          "adk-core",
          "adk-testing",
          "adk-sessions",
          "adk-agents",
          "adk-runner",
          "adk-workflows",
          "adk-server",
          "adk-eval",
          "adk-tools-mcp",
          "adk-a2a",
          "adk-models-openai",
          "adk-models-anthropic",
          "adk-models-langchain4j",
          "adk4j-spring-boot-autoconfigure");

  private static final String INTERNAL = "dev.adk4j.internal";

  /**
   * Methods that take an Optional because ADK for Java's do (source compatibility), in these types
   * and their implementations: {@code getSession(..., Optional<GetSessionConfig>)} and {@code
   * loadArtifact(..., Optional<Integer> version)}.
   */
  private static final Map<Class<?>, String> OPTIONAL_PARAMETERS_ALLOWED =
      Map.of(
          BaseSessionService.class, "getSession",
          BaseArtifactService.class, "loadArtifact",
          ReadonlyContext.class, "loadArtifact",
          dev.adk4j.agents.RunConfig.Builder.class, "groupFunctionResponsesInHistoryOverride");

  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  /** Every top-level type of the library's main sources, by module. */
  private static final Map<String, List<Class<?>>> TYPES = new TreeMap<>();

  private static final Set<String> PACKAGES = new TreeSet<>();

  @BeforeAll
  static void loadTheLibrarysTypes() throws ClassNotFoundException {
    for (String module : LIBRARY_MODULES) {
      Path src = ROOT.resolve(module).resolve("src/main/java");
      List<Class<?>> types = new ArrayList<>();
      for (Path file : javaFiles(src)) {
        String name = src.relativize(file).toString().replace('\\', '/');
        name = name.substring(0, name.length() - ".java".length()).replace('/', '.');
        if (name.endsWith(".package-info")) {
          continue;
        }
        Class<?> type = Class.forName(name, false, ApiSurfaceTest.class.getClassLoader());
        types.add(type);
        PACKAGES.add(type.getPackageName());
      }
      TYPES.put(module, types);
    }
    assertThat(TYPES.get("adk-core")).as("adk-core's types").isNotEmpty();
  }

  @Test
  void publicTypes_areTheDeclaredOnes() throws IOException {
    Set<String> declared = declaredPublicTypes();
    Set<String> actual = new TreeSet<>();
    int files = 0;
    int publicInternal = 0;
    for (List<Class<?>> types : TYPES.values()) {
      for (Class<?> type : types) {
        files++;
        if (Modifier.isPublic(type.getModifiers())) {
          if (isInternal(type)) {
            publicInternal++;
          } else {
            actual.add(type.getName());
          }
        }
      }
    }
    assertThat(actual)
        .as(
            "public types outside dev.adk4j.internal: declare a new one in docs/public-api.md (or"
                + " make it package-private or internal); remove a gone one from the page")
        .isEqualTo(declared);
    System.out.printf(
        "Public surface: %d public API types, %d public internal types, %d source files (%.0f%%"
            + " API)%n",
        actual.size(), publicInternal, files, 100.0 * actual.size() / files);
  }

  @Test
  void everyPackage_isNullMarked() {
    List<String> unmarked = new ArrayList<>();
    for (String pkg : PACKAGES) {
      if (!nullMarked(pkg)) {
        unmarked.add(pkg);
      }
    }
    assertThat(unmarked).as("packages without a @NullMarked package-info").isEmpty();
  }

  @Test
  void everyException_extendsAdkException() {
    List<String> strays = new ArrayList<>();
    for (Class<?> type : allTypesWithNested()) {
      if (Throwable.class.isAssignableFrom(type)
          && isVisible(type)
          && !AdkException.class.isAssignableFrom(type)) {
        strays.add(type.getName());
      }
    }
    assertThat(strays).as("public exceptions that do not extend AdkException").isEmpty();
  }

  @Test
  void optional_isAReturnTypeOnly_andNeverNullable() {
    List<String> violations = new ArrayList<>();
    for (Class<?> type : apiTypes()) {
      for (Field f : type.getDeclaredFields()) {
        if (isVisible(f.getModifiers()) && Optional.class.isAssignableFrom(f.getType())) {
          violations.add("field " + type.getName() + "." + f.getName());
        }
      }
      for (Method m : type.getDeclaredMethods()) {
        if (!isVisible(m.getModifiers()) || m.isSynthetic()) {
          continue;
        }
        String where = type.getName() + "." + m.getName();
        for (Parameter p : m.getParameters()) {
          if (Optional.class.isAssignableFrom(p.getType()) && !adkSignature(type, m)) {
            violations.add("parameter of " + where);
          }
        }
        if (Optional.class.isAssignableFrom(m.getReturnType())
            && m.getAnnotatedReturnType().isAnnotationPresent(Nullable.class)) {
          violations.add("@Nullable Optional returned by " + where);
        }
      }
    }
    assertThat(violations).as("Optional outside the policy").isEmpty();
  }

  @Test
  void noMutableObjectMapper_isHandedOut() {
    List<String> leaks = new ArrayList<>();
    for (Class<?> type : apiTypes()) {
      for (Method m : type.getDeclaredMethods()) {
        if (isVisible(m.getModifiers()) && ObjectMapper.class.isAssignableFrom(m.getReturnType())) {
          leaks.add(type.getName() + "." + m.getName() + "()");
        }
      }
      for (Field f : type.getDeclaredFields()) {
        if (isVisible(f.getModifiers()) && ObjectMapper.class.isAssignableFrom(f.getType())) {
          leaks.add(type.getName() + "." + f.getName());
        }
      }
    }
    assertThat(leaks).as("public ways to reach a mutable ObjectMapper").isEmpty();
  }

  private static boolean adkSignature(Class<?> type, Method m) {
    return OPTIONAL_PARAMETERS_ALLOWED.entrySet().stream()
        .anyMatch(e -> e.getKey().isAssignableFrom(type) && e.getValue().equals(m.getName()));
  }

  /** The fully qualified names in the page's lists: lines such as "- `dev.adk4j.x.Type`: ...". */
  static Set<String> declaredPublicTypes() throws IOException {
    Pattern item = Pattern.compile("^- `(dev\\.adk4j\\.[A-Za-z0-9_.]+)`", Pattern.MULTILINE);
    Matcher m = item.matcher(Files.readString(ROOT.resolve("docs/public-api.md")));
    Set<String> out = new TreeSet<>();
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  /** Public or protected types outside the internal packages, nested ones included. */
  private static List<Class<?>> apiTypes() {
    return allTypesWithNested().stream()
        .filter(t -> isVisible(t) && !isInternal(t))
        .collect(Collectors.toList());
  }

  private static List<Class<?>> allTypesWithNested() {
    List<Class<?>> out = new ArrayList<>();
    TYPES.values().forEach(types -> types.forEach(t -> addWithNested(t, out)));
    return out;
  }

  private static void addWithNested(Class<?> type, List<Class<?>> out) {
    out.add(type);
    for (Class<?> nested : type.getDeclaredClasses()) {
      addWithNested(nested, out);
    }
  }

  /** Reachable from outside its package: public or protected, and so is every enclosing type. */
  private static boolean isVisible(Class<?> type) {
    for (Class<?> t = type; t != null; t = t.getEnclosingClass()) {
      if (!isVisible(t.getModifiers())) {
        return false;
      }
    }
    return true;
  }

  private static boolean isVisible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  private static boolean isInternal(Class<?> type) {
    String pkg = type.getPackageName();
    return pkg.equals(INTERNAL) || pkg.startsWith(INTERNAL + ".");
  }

  private static boolean nullMarked(String pkg) {
    try {
      Class<?> info =
          Class.forName(pkg + ".package-info", false, ApiSurfaceTest.class.getClassLoader());
      return info.isAnnotationPresent(NullMarked.class);
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  private static List<Path> javaFiles(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(f -> f.toString().endsWith(".java"))
          .sorted()
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
