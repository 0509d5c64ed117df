package dev.adk4j.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import io.reactivex.rxjava3.core.Flowable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A representative ADK for Java program ({@code src/test/resources/adk-java/SupportDesk.java},
 * written against google-adk 1.8.0: an {@code LlmAgent} with instruction placeholders, an output
 * key, a {@code FunctionTool} taking a {@code ToolContext}, agent, model and tool callbacks,
 * session services, {@code State} prefixes, {@code InstructionUtils}, {@code Runner}, {@code
 * InMemoryRunner} and {@code RunConfig}'s builder) compiles against adk4j with only its imports
 * changed, as {@code docs/migrating-from-adk-java.md} says (the exceptions to the prefix swap are
 * read from that page's table), and runs offline with the behaviour the page describes.
 *
 * <p>A line of the program marked {@code // adk4j-pending: ...} uses a spelling adk4j does not
 * accept yet; the test requires that exactly those lines fail, each on its own, and runs the
 * program without them. When one starts to compile, the test fails until its marker is removed.
 */
class AdkJavaMigrationTest {

  private static final String PROGRAM = "/adk-java/SupportDesk.java";
  private static final String MAIN_CLASS = "com.example.supportdesk.SupportDesk";
  private static final String PENDING = "// adk4j-pending:";

  @TempDir Path work;

  private static Path guide() {
    return Path.of("").toAbsolutePath().getParent().resolve("docs/migrating-from-adk-java.md");
  }

  private static String adkProgram() {
    try (InputStream in = AdkJavaMigrationTest.class.getResourceAsStream(PROGRAM)) {
      assertThat(in).as("test resource %s", PROGRAM).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String migratedProgram() throws IOException {
    String adk = adkProgram();
    assertThat(adk).contains("import com.google.adk.sessions.State;");
    String migrated = AdkImports.fromGuide(guide()).translate(adk);
    assertThat(migrated).doesNotContain("com.google.adk");
    assertThat(migrated.lines().filter(l -> !l.startsWith("import ")).toList())
        .as("only import lines change")
        .isEqualTo(adk.lines().filter(l -> !l.startsWith("import ")).toList());
    return migrated;
  }

  // ------------------------------------------------------------------ the guide's import table

  @Test
  void importTable_listsTypesThatMovedPackage_underTheirOwnSimpleName() throws IOException {
    Map<String, String> moved = AdkImports.fromGuide(guide()).moved();

    assertThat(moved)
        .containsEntry("com.google.adk.sessions.State", "dev.adk4j.state.State")
        .containsEntry(
            "com.google.adk.utils.InstructionUtils", "dev.adk4j.agents.InstructionUtils");
    ClassLoader loader = getClass().getClassLoader();
    moved.forEach(
        (adk, adk4j) -> {
          assertThat(simpleName(adk4j)).as("simple name of %s", adk).isEqualTo(simpleName(adk));
          assertThat(loadable(loader, adk4j)).as("%s exists (row of %s)", adk4j, adk).isTrue();
          String swapped = AdkImports.ADK4J + adk.substring(AdkImports.ADK.length());
          assertThat(loadable(loader, swapped))
              .as("%s exists, so the row for %s is not an exception", swapped, adk)
              .isFalse();
        });
  }

  @Test
  void translate_changesImportsOnly_followingTheTableForMovedTypesAndTheirMembers() {
    AdkImports imports =
        new AdkImports(Map.of("com.google.adk.sessions.State", "dev.adk4j.state.State"));
    String source =
        String.join(
            "\n",
            "import com.google.adk.sessions.State;",
            "import static com.google.adk.sessions.State.APP_PREFIX;",
            "import com.google.adk.sessions.Session;",
            "import com.google.adk.sessions.*;",
            "import com.google.adk.tools.Annotations.Schema;",
            "import com.google.adk.sessions.StateX;",
            "// see com.google.adk.sessions.State",
            "class A {}");

    assertThat(imports.translate(source))
        .isEqualTo(
            String.join(
                "\n",
                "import dev.adk4j.state.State;",
                "import static dev.adk4j.state.State.APP_PREFIX;",
                "import dev.adk4j.sessions.Session;",
                "import dev.adk4j.sessions.*;",
                "import dev.adk4j.tools.Annotations.Schema;",
                "import dev.adk4j.sessions.StateX;",
                "// see com.google.adk.sessions.State",
                "class A {}"));
    assertThatThrownBy(() -> imports.translateName("dev.adk4j.x.Y"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("dev.adk4j.x.Y");
  }

  // ------------------------------------------------------------------ compiling the program

  @Test
  void adkProgram_withOnlyItsImportsChanged_compiles_exceptItsPendingLines() throws Exception {
    String migrated = migratedProgram();
    List<Integer> pending = pendingLines(migrated);

    try (Compiler javac = new Compiler()) {
      for (int line : pending) {
        List<Integer> others = new ArrayList<>(pending);
        others.remove(Integer.valueOf(line));
        List<Diagnostic<? extends JavaFileObject>> errors =
            javac.compile(blank(migrated, others), Files.createTempDirectory(work, "pending"));
        assertThat(errors)
            .as(
                "line %d (%s) is marked adk4j-pending: it compiles now, so remove its marker and"
                    + " move its entry in docs/migrating-from-adk-java.md from the pending list to"
                    + " the spellings adk4j accepts",
                line, lineText(migrated, line))
            .isNotEmpty();
        assertThat(errorLines(errors))
            .as("errors when only pending line %d is kept:%n%s", line, describe(errors, migrated))
            .containsOnly((long) line);
      }

      List<Diagnostic<? extends JavaFileObject>> errors =
          javac.compile(blank(migrated, pending), work.resolve("classes"));
      assertThat(errors)
          .as(
              "the ADK for Java program, imports changed, does not compile:%n%s",
              describe(errors, migrated))
          .isEmpty();
    }
  }

  // ------------------------------------------------------------------ running it offline

  @Test
  @SuppressWarnings("unchecked")
  void adkProgram_runsOfflineOnAdk4j_withItsStateScopesCallbacksAndTool() throws Exception {
    String migrated = migratedProgram();
    List<Integer> pending = pendingLines(migrated);
    boolean beforeToolWired =
        pending.stream().noneMatch(l -> lineText(migrated, l).contains("checkOrderId"));
    boolean afterToolWired =
        pending.stream().noneMatch(l -> lineText(migrated, l).contains("stampResponse"));
    Path classes = work.resolve("classes");
    try (Compiler javac = new Compiler()) {
      List<Diagnostic<? extends JavaFileObject>> errors =
          javac.compile(blank(migrated, pending), classes);
      assertThat(errors).as("%s", describe(errors, migrated)).isEmpty();
    }
    OrderDeskModel model = new OrderDeskModel();

    Map<String, Object> report;
    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
      Method run = loader.loadClass(MAIN_CLASS).getMethod("run", BaseLlm.class);
      try {
        report = (Map<String, Object>) run.invoke(null, model);
      } catch (InvocationTargetException e) {
        throw new AssertionError("SupportDesk.run failed", e.getCause());
      }
    }

    // The manual update: scoped keys routed, temp: dropped at the append.
    assertThat(report.get("stateAfterLogin"))
        .isEqualTo(
            Map.of(
                "app:support_hours", "9-17",
                "user:name", "Alice",
                "user:login_count", 1,
                "tier", "gold",
                "channel", "chat"));

    // Two turns: the tool ran with its ToolContext, the output key holds the last reply.
    assertThat(report).containsEntry("firstReply", "Order A-17 is shipped.");
    assertThat(report).containsEntry("secondReply", "You're welcome.");
    List<String> transcript = (List<String>) report.get("transcript");
    assertThat(transcript)
        .anySatisfy(l -> assertThat(l).contains("call lookupOrder{orderId=A-17}"))
        .anySatisfy(
            l ->
                assertThat(l)
                    .contains("response lookupOrder{")
                    .contains("callId=fc-1")
                    .contains("status=shipped")
                    .contains("user:last_order=A-17"))
        // temp: values live for the invocation: the after-agent callback saw the turn's counts.
        .anySatisfy(l -> assertThat(l).contains("lookups_last_turn=1, model_calls_last_turn=2"))
        .noneSatisfy(l -> assertThat(l).contains("temp:"));
    assertThat(transcript)
        .filteredOn(l -> l.contains("response lookupOrder{"))
        .singleElement()
        .satisfies(
            l -> {
              if (afterToolWired) {
                assertThat(l).contains("checkedBy=support_desk");
              } else {
                assertThat(l).doesNotContain("checkedBy");
              }
            });

    Map<String, Object> stored = new TreeMap<>((Map<String, Object>) report.get("storedState"));
    if (beforeToolWired) {
      assertThat(stored.remove("last_checked_invocation")).asString().isNotBlank();
    }
    assertThat(stored)
        .as("temp: values never stored, so the second turn counted no lookups")
        .isEqualTo(
            new TreeMap<>(
                Map.ofEntries(
                    Map.entry("app:support_hours", "9-17"),
                    Map.entry("channel", "chat"),
                    Map.entry("last_model_role", "model"),
                    Map.entry("last_reply", "You're welcome."),
                    Map.entry("lookups_last_turn", 0),
                    Map.entry("model_calls_last_turn", 1),
                    Map.entry("started_by", "support_agent"),
                    Map.entry("tier", "gold"),
                    Map.entry("user:last_order", "A-17"),
                    Map.entry("user:login_count", 1),
                    Map.entry("user:name", "Alice"),
                    Map.entry("user:visits", 2))));
    assertThat(report).as("events stored, as in ADK for Java").containsEntry("storedEvents", 11);

    // Another session of the user sees app: and user: values (initial ones included), not the
    // first session's own keys.
    assertThat(report.get("otherSessionState"))
        .isEqualTo(
            Map.of(
                "app:support_hours", "9-17",
                "user:name", "Alice",
                "user:last_order", "A-17",
                "user:login_count", 1,
                "user:visits", 2));

    // The InMemoryRunner's own services.
    assertThat(report.get("quickState"))
        .isEqualTo(
            new TreeMap<>(
                Map.of(
                    "app:support_hours", "8-20",
                    "last_model_role", "model",
                    "last_reply", "You're welcome.",
                    "lookups_last_turn", 0,
                    "model_calls_last_turn", 1,
                    "started_by", "support_agent",
                    "tier", "silver",
                    "user:name", "Bob",
                    "user:visits", 1)));

    // Placeholders were filled from state at every model call; the global instruction came from
    // an Instruction.Provider calling InstructionUtils with the invocation context.
    assertThat(model.systemInstructions).hasSize(4);
    assertThat(model.systemInstructions.get(0))
        .contains("Support hours: 9-17. Be brief.")
        .contains("You help Alice (tier gold) with orders. Their last order was .");
    assertThat(model.systemInstructions.get(1)).contains("Their last order was A-17.");
    assertThat(model.systemInstructions.get(2)).contains("Their last order was A-17.");
    assertThat(model.systemInstructions.get(3))
        .contains("Support hours: 8-20. Be brief.")
        .contains("You help Bob (tier silver) with orders. Their last order was .");
  }

  // ------------------------------------------------------------------ helpers

  /**
   * The offline model the program runs on: it looks up an order named in the user's message,
   * answers a function response with the order's status, and anything else with thanks. It records
   * the system instruction of every request.
   */
  static final class OrderDeskModel extends BaseLlm {
    private static final Pattern ORDER = Pattern.compile("[A-Z]-\\d+");
    final List<String> systemInstructions = Collections.synchronizedList(new ArrayList<>());

    OrderDeskModel() {
      super("order-desk-rules");
    }

    @Override
    public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
      return Flowable.fromCallable(() -> respond(request));
    }

    private LlmResponse respond(LlmRequest request) {
      systemInstructions.add(request.systemInstruction().orElse(""));
      Content last = request.contents().get(request.contents().size() - 1);
      Part part = last.parts().orElseThrow().get(0);
      Part reply;
      if (part.functionResponse().isPresent()) {
        Map<String, Object> r = part.functionResponse().get().response().orElseThrow();
        reply = Part.fromText("Order " + r.get("orderId") + " is " + r.get("status") + ".");
      } else {
        Matcher order = ORDER.matcher(part.text().orElse(""));
        reply =
            order.find()
                ? Part.builder()
                    .functionCall(
                        FunctionCall.builder()
                            .id("fc-1")
                            .name("lookupOrder")
                            .args(Map.of("orderId", order.group()))
                            .build())
                    .build()
                : Part.fromText("You're welcome.");
      }
      return LlmResponse.builder()
          .content(Content.builder().role("model").parts(List.of(reply)).build())
          .build();
    }
  }

  /** javac in this JVM, compiling one source against the test classpath. */
  private static final class Compiler implements AutoCloseable {
    private final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    private final StandardJavaFileManager files =
        javac.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);

    List<Diagnostic<? extends JavaFileObject>> compile(String source, Path out) throws IOException {
      Files.createDirectories(out);
      DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
      JavaFileObject file =
          new SimpleJavaFileObject(
              URI.create("string:///" + MAIN_CLASS.replace('.', '/') + ".java"),
              JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
              return source;
            }
          };
      javac
          .getTask(
              null,
              files,
              diagnostics,
              List.of(
                  "-proc:none",
                  "-classpath",
                  System.getProperty("java.class.path"),
                  "-d",
                  out.toString()),
              null,
              List.of(file))
          .call();
      List<Diagnostic<? extends JavaFileObject>> errors = new ArrayList<>();
      for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
        if (d.getKind() == Diagnostic.Kind.ERROR) {
          errors.add(d);
        }
      }
      return errors;
    }

    @Override
    public void close() throws IOException {
      files.close();
    }
  }

  /** Line numbers (1-based) of the lines marked pending. */
  private static List<Integer> pendingLines(String source) {
    List<String> lines = source.lines().toList();
    List<Integer> pending = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(PENDING)) {
        pending.add(i + 1);
      }
    }
    return pending;
  }

  /** {@code source} with the given lines emptied (line numbers stay). */
  private static String blank(String source, List<Integer> lines) {
    List<String> out = new ArrayList<>(source.lines().toList());
    for (int line : lines) {
      out.set(line - 1, "");
    }
    return String.join("\n", out) + "\n";
  }

  private static String lineText(String source, long line) {
    return source.lines().skip(line - 1).findFirst().orElse("").strip();
  }

  private static TreeSet<Long> errorLines(List<Diagnostic<? extends JavaFileObject>> errors) {
    TreeSet<Long> lines = new TreeSet<>();
    errors.forEach(d -> lines.add(d.getLineNumber()));
    return lines;
  }

  private static String describe(List<Diagnostic<? extends JavaFileObject>> errors, String source) {
    StringBuilder out = new StringBuilder();
    for (Diagnostic<? extends JavaFileObject> d : errors) {
      out.append("  line ")
          .append(d.getLineNumber())
          .append(": ")
          .append(d.getMessage(Locale.ROOT))
          .append("\n    ")
          .append(lineText(source, d.getLineNumber()))
          .append('\n');
    }
    return out.toString();
  }

  private static String simpleName(String name) {
    return name.substring(name.lastIndexOf('.') + 1);
  }

  private static boolean loadable(ClassLoader loader, String name) {
    try {
      Class.forName(name, false, loader);
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
