package dev.adk4j.runner;

import static dev.adk4j.runner.LongRunningToolsTest.answer;
import static dev.adk4j.runner.LongRunningToolsTest.onlyCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.events.ToolConfirmation;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link Runner#runAsync(String, String, String, Content, RunConfig, Map)}: a paused invocation
 * resumed by its id, with no message (the answer stored in the session beforehand, as a job that
 * finished or a person's confirmation recorded elsewhere would be) or with the answering message,
 * on a second runner over a second service object of the same store.
 */
class ResumeByIdTest {

  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  @TempDir static Path dir;
  static final AtomicInteger N = new AtomicInteger();

  enum Backend {
    MEMORY,
    SQLITE,
    POSTGRES
  }

  final List<AutoCloseable> opened = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : opened) {
      c.close();
    }
    opened.clear();
  }

  @AfterAll
  static void dropDatabases() throws Exception {
    POSTGRES.dropDatabases();
  }

  /** Two service objects over one store (one object in memory); the session "s" of user "u". */
  BaseSessionService[] services(Backend backend, String app) throws Exception {
    BaseSessionService first;
    BaseSessionService second;
    switch (backend) {
      case MEMORY -> {
        first = new InMemorySessionService();
        second = first;
      }
      case SQLITE -> {
        String url = "jdbc:sqlite:" + dir.resolve(app + ".db");
        first = open(new DatabaseSessionService(url));
        second = open(new DatabaseSessionService(url));
      }
      default -> {
        String url = POSTGRES.newMigratedDatabase();
        first = open(new DatabaseSessionService(url));
        second = open(new DatabaseSessionService(url));
      }
    }
    first.createSession(app, "u", null, "s").blockingGet();
    return new BaseSessionService[] {first, second};
  }

  private DatabaseSessionService open(DatabaseSessionService s) {
    opened.add(s);
    return s;
  }

  static List<Event> resume(Runner runner, String invocationId, @Nullable Content message) {
    return runner
        .runAsync("u", "s", invocationId, message, RunConfig.builder().build(), null)
        .toList()
        .blockingGet();
  }

  /** Stores {@code answer} in the session as the user's event of the invocation, outside a run. */
  static void store(BaseSessionService service, String app, String invocation, Content answer) {
    Session session = service.getSession(app, "u", "s").blockingGet();
    service
        .appendEvent(
            session,
            Event.builder().invocationId(invocation).author("user").content(answer).build())
        .blockingGet();
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void aLongRunningCallAnsweredInTheSessionResumesByItsInvocationIdWithNoMessage(Backend backend)
      throws Exception {
    String app = "byid_" + N.incrementAndGet();
    BaseSessionService[] s = services(backend, app);
    LongRunningToolsTest.Tickets tickets = new LongRunningToolsTest.Tickets();
    ScriptedLlm first =
        ScriptedLlm.builder()
            .thenFunctionCall("askForApproval", Map.of("purpose", "travel", "amount", 300))
            .build();
    List<Event> paused =
        new Runner(LongRunningToolsTest.approver(first, tickets), app, null, s[0])
            .runAsync("u", "s", Contents.user("Reimburse my trip"))
            .toList()
            .blockingGet();
    String invocation = paused.get(0).invocationId();
    String callId = onlyCall(paused.get(0)).id().orElseThrow();

    ScriptedLlm second = ScriptedLlm.builder().thenText("Reimbursed.").build();
    Runner other =
        new Runner(
            LongRunningToolsTest.approver(second, new LongRunningToolsTest.Tickets()),
            app,
            null,
            s[1]);
    int before = s[1].getSession(app, "u", "s").blockingGet().events().size();

    // Not answered yet: refused, naming the call, and nothing is stored.
    assertThatThrownBy(() -> resume(other, invocation, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + invocation + "'")
        .hasMessageContaining("still waits for answers to its calls [" + callId + "]")
        .hasMessageContaining("session 's' of user 'u' in app '" + app + "'");
    // An invocation the session does not have: refused, naming it.
    assertThatThrownBy(() -> resume(other, "e-nope", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Invocation 'e-nope' to resume has no event in session 's'");
    assertThat(s[1].getSession(app, "u", "s").blockingGet().events()).hasSize(before);
    assertThat(second.callCount()).isZero();

    // The job's result is stored by someone else; the run by id resumes the invocation with it.
    store(s[1], app, invocation, answer(callId, "askForApproval", Map.of("status", "approved")));
    List<Event> resumed = resume(other, invocation, null);
    assertThat(resumed)
        .singleElement()
        .satisfies(e -> assertThat(e.invocationId()).isEqualTo(invocation));
    assertThat(resumed.get(0).stringifyContent()).isEqualTo("Reimbursed.");
    assertThat(ScriptedLlm.functionResponses(second.lastRequest()))
        .singleElement()
        .satisfies(r -> assertThat(r.response().orElseThrow()).containsEntry("status", "approved"));
    Session done = s[0].getSession(app, "u", "s").blockingGet();
    assertThat(done.state()).containsEntry("outcome", "Reimbursed.");
    assertThat(done.events()).hasSize(before + 2); // the answer, the reply
    assertThat(tickets.calls).hasValue(1);

    // Resumed already: a second run by id is ADK's no-op, storing nothing and calling no model.
    assertThat(resume(other, invocation, null)).isEmpty();
    assertThat(second.callCount()).isEqualTo(1);
    assertThat(s[0].getSession(app, "u", "s").blockingGet().events()).hasSize(before + 2);
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void aConfirmationResumesByIdWithItsAnswerStoredOrSentAndOnlyForItsOwnInvocation(Backend backend)
      throws Exception {
    String app = "byid_" + N.incrementAndGet();
    BaseSessionService[] s = services(backend, app);
    LongRunningToolsTest.Bank bank = new LongRunningToolsTest.Bank();
    Runner runner =
        new Runner(
            LongRunningToolsTest.teller(
                ScriptedLlm.builder()
                    .thenFunctionCall("transfer", Map.of("amount", 50))
                    .thenText("Sent 50.")
                    .thenFunctionCall("transfer", Map.of("amount", 20))
                    .thenText("Sent 20.")
                    .build(),
                bank),
            app,
            null,
            s[0]);
    List<Event> first = runner.runAsync("u", "s", Contents.user("pay 50")).toList().blockingGet();
    String firstInvocation = first.get(0).invocationId();
    String firstRequest = onlyCall(first.get(2)).id().orElseThrow();
    Content yes =
        answer(firstRequest, ToolConfirmation.REQUEST_FUNCTION_NAME, Map.of("confirmed", true));

    // The person's answer stored in the session; the run by id, with no message, runs the call.
    store(s[1], app, firstInvocation, yes);
    Runner other =
        new Runner(
            LongRunningToolsTest.teller(
                ScriptedLlm.builder()
                    .thenText("Sent 50.")
                    .thenFunctionCall("transfer", Map.of("amount", 20))
                    .thenText("Sent 20.")
                    .build(),
                bank),
            app,
            null,
            s[1]);
    List<Event> resumed = resume(other, firstInvocation, null);
    assertThat(bank.runs).hasValue(1);
    assertThat(resumed).extracting(Event::invocationId).containsOnly(firstInvocation);
    assertThat(resumed.get(resumed.size() - 1).stringifyContent()).isEqualTo("Sent 50.");
    assertThat(s[0].getSession(app, "u", "s").blockingGet().state())
        .containsEntry("last_transfer", 50);

    // A second confirmation in a new invocation: a message answering it, sent with the id of
    // another invocation, is refused; with its own id it resumes.
    List<Event> second = other.runAsync("u", "s", Contents.user("pay 20")).toList().blockingGet();
    String secondInvocation = second.get(0).invocationId();
    Content yes20 =
        answer(
            onlyCall(second.get(2)).id().orElseThrow(),
            ToolConfirmation.REQUEST_FUNCTION_NAME,
            Map.of("confirmed", true));
    assertThatThrownBy(() -> resume(other, firstInvocation, yes20))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("answer calls of invocation '" + secondInvocation + "'")
        .hasMessageContaining("not of invocation '" + firstInvocation + "'");
    assertThatThrownBy(() -> resume(other, secondInvocation, Contents.user("just text")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("holds no function response");
    assertThat(bank.runs).hasValue(1);
    List<Event> done = resume(other, secondInvocation, yes20);
    assertThat(bank.runs).hasValue(2);
    assertThat(done).extracting(Event::invocationId).containsOnly(secondInvocation);
    assertThat(s[0].getSession(app, "u", "s").blockingGet().state())
        .containsEntry("last_transfer", 20)
        .containsEntry("user:transfers", 2);
  }
}
