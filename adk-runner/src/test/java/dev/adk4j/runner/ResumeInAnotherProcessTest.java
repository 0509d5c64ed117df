package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.events.ToolConfirmation;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.ChildJvm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An invocation paused in this JVM is resumed by another JVM over the same SQLite file or
 * PostgreSQL database, while this JVM's service stays open: the child runs the confirmed tool once,
 * with the state this JVM stored, and this JVM then reads what the child stored.
 */
class ResumeInAnotherProcessTest {

  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  @TempDir static Path dir;
  static final AtomicInteger N = new AtomicInteger();

  @AfterAll
  static void dropDatabases() throws Exception {
    POSTGRES.dropDatabases();
  }

  /** The bank's tool, in both JVMs; prints a line each time it runs. */
  public static final class Bank {
    public Map<String, Object> transfer(int amount, ToolContext ctx) {
      Object limit = ctx.state().get("user:limit");
      System.out.println("RAN amount=" + amount + " limit=" + limit);
      ctx.state().increment("user:transfers", 1);
      return Map.of("transferred", amount, "limit", String.valueOf(limit));
    }
  }

  static LlmAgent teller(ScriptedLlm model) {
    return LlmAgent.builder()
        .name("teller")
        .model(model)
        .tools(FunctionTool.create(new Bank(), "transfer", true))
        .build();
  }

  /** The child JVM: resumes session {@code s} of {@code args[1]} at {@code args[0]}. */
  public static void main(String[] args) {
    String url = args[0];
    String app = args[1];
    String requestId = args[2];
    try (DatabaseSessionService sessions = new DatabaseSessionService(url)) {
      Runner runner =
          new Runner(teller(ScriptedLlm.builder().thenText("sent").build()), app, null, sessions);
      Content answer =
          Content.builder()
              .role("user")
              .parts(
                  Part.builder()
                      .functionResponse(
                          FunctionResponse.builder()
                              .id(requestId)
                              .name(ToolConfirmation.REQUEST_FUNCTION_NAME)
                              .response(Map.of("confirmed", true))
                              .build())
                      .build())
              .build();
      List<Event> events = runner.runAsync("u", "s", answer).toList().blockingGet();
      for (Event e : events) {
        System.out.println("EVENT " + e.invocationId() + " " + e.stringifyContent());
      }
    }
    System.out.flush();
    System.exit(0);
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void aChildJvmResumesWhatThisJvmPaused(String database) throws Exception {
    String app = "process_" + N.incrementAndGet();
    String url =
        database.equals("sqlite")
            ? "jdbc:sqlite:" + dir.resolve(app + ".db")
            : POSTGRES.newMigratedDatabase();
    try (DatabaseSessionService sessions = new DatabaseSessionService(url)) {
      sessions.createSession(app, "u", Map.of("user:limit", 500), "s").blockingGet();
      ScriptedLlm model =
          ScriptedLlm.builder().thenFunctionCall("transfer", Map.of("amount", 42)).build();
      List<Event> paused =
          new Runner(teller(model), app, null, sessions)
              .runAsync("u", "s", Contents.user("pay 42"))
              .toList()
              .blockingGet();
      FunctionCall request = paused.get(paused.size() - 1).functionCalls().get(0);
      assertThat(request.name()).contains(ToolConfirmation.REQUEST_FUNCTION_NAME);
      String invocationId = paused.get(0).invocationId();

      Path out = Files.createTempFile(dir, "child", ".out");
      Path err = Files.createTempFile(dir, "child", ".err");
      Process child =
          new ProcessBuilder(
                  ChildJvm.command(
                      ResumeInAnotherProcessTest.class, url, app, request.id().orElseThrow()))
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("child finished").isTrue();
      String printed = Files.readString(out, StandardCharsets.UTF_8);
      assertThat(child.exitValue())
          .as("child exit; stdout:%n%s%nstderr:%n%s", printed, Files.readString(err))
          .isZero();

      // The child ran the tool once, with the user state this JVM stored, in the paused
      // invocation.
      assertThat(printed.lines().filter(l -> l.startsWith("RAN ")))
          .containsExactly("RAN amount=42 limit=500");
      assertThat(printed).contains("EVENT " + invocationId + " sent");

      Session after = sessions.getSession(app, "u", "s").blockingGet();
      assertThat(after.state()).containsEntry("user:transfers", 1);
      Event last = after.events().get(after.events().size() - 1);
      assertThat(last.stringifyContent()).isEqualTo("sent");
      assertThat(last.invocationId()).isEqualTo(invocationId);
    }
  }
}
