package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * The transaction runner of {@code DatabaseSessionService} keeps every failed attempt: whatever is
 * finally thrown (a {@link SessionException} once the retries are spent, a fatal failure, or an
 * exception of the operation itself such as a stale copy) carries the failures of the earlier
 * attempts as suppressed exceptions, oldest first. Failures are injected by a {@link
 * FailingDataSource} around a real SQLite file, in place of the statements.
 */
class TransactionRetryTest {

  private static final String APP = "retries";

  @TempDir Path dir;

  private FailingDataSource failing;
  private DatabaseSessionService service;
  private DatabaseSessionService reader;
  private Session session;

  @BeforeEach
  void open() {
    SQLiteDataSource raw = new SQLiteDataSource();
    raw.setUrl("jdbc:sqlite:" + dir.resolve("retries.db"));
    failing = new FailingDataSource(raw);
    DatabaseSessionConfig config = DatabaseSessionConfig.builder().minimumIdle(0).build();
    service = new DatabaseSessionService(failing, config);
    reader = new DatabaseSessionService(raw, config);
    session = service.createSession(APP, "alice", Map.of("k", 0), "s1").blockingGet();
  }

  @AfterEach
  void close() {
    service.close();
    reader.close();
  }

  /** SQLITE_BUSY, as when the busy timeout runs out: transient, so retried. */
  private static SQLException busy(int execution) {
    return new SQLException("[SQLITE_BUSY] injected at execution " + execution, null, 5);
  }

  private static Event event(Object value) {
    return Event.builder()
        .author("test")
        .actions(EventActions.builder().stateDelta(Map.of("k", value)).build())
        .build();
  }

  private static List<String> messages(Throwable[] suppressed) {
    return Arrays.stream(suppressed).map(Throwable::getMessage).toList();
  }

  @Test
  void everyAttemptFailing_throwsAfterTheLast_withEachEarlierAttemptSuppressedInOrder() {
    failing.failEach(TransactionRetryTest::busy); // every statement of every attempt

    Throwable thrown = catchThrowable(() -> service.appendEvent(session, event(1)).blockingGet());

    // Each attempt failed at its first statement: five attempts, five executions.
    assertThat(failing.executed()).hasSize(5);
    assertThat(thrown)
        .isInstanceOf(SessionException.class)
        .hasMessageContaining("'s1'")
        .hasMessageContaining("5 attempts")
        .hasMessageContaining("injected at execution 5");
    assertThat(thrown.getCause())
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("injected at execution 5");
    assertThat(thrown.getSuppressed()).allMatch(t -> t instanceof SQLException);
    assertThat(messages(thrown.getSuppressed()))
        .containsExactly(
            "[SQLITE_BUSY] injected at execution 1",
            "[SQLITE_BUSY] injected at execution 2",
            "[SQLITE_BUSY] injected at execution 3",
            "[SQLITE_BUSY] injected at execution 4");
    Session stored = reader.getSession(APP, "alice", "s1").blockingGet();
    assertThat(stored.events()).isEmpty();
    assertThat(stored.state()).containsEntry("k", 0);
    assertThat(session.revision()).isZero();
  }

  @Test
  void transientFailuresThenAFatalOne_throwTheFatal_withTheTransientOnesSuppressed() {
    failing.failEach(
        k -> k <= 2 ? busy(k) : k == 3 ? new SQLException("injected fatal", "XX000") : null);

    Throwable thrown = catchThrowable(() -> service.appendEvent(session, event(1)).blockingGet());

    assertThat(thrown)
        .isInstanceOf(SessionException.class)
        .hasMessageContaining("3 attempts")
        .hasMessageContaining("injected fatal");
    assertThat(thrown.getCause()).hasMessage("injected fatal");
    assertThat(messages(thrown.getSuppressed()))
        .containsExactly(
            "[SQLITE_BUSY] injected at execution 1", "[SQLITE_BUSY] injected at execution 2");
    assertThat(reader.getSession(APP, "alice", "s1").blockingGet().events()).isEmpty();
  }

  @Test
  void theOperationsOwnException_afterTransientFailures_keepsItsType_andCarriesThem() {
    Session stale = reader.getSession(APP, "alice", "s1").blockingGet();
    service.appendEvent(session, event(1)).blockingGet();
    failing.failEach(k -> k <= 2 ? busy(k) : null);

    Throwable thrown = catchThrowable(() -> service.appendEvent(stale, event(2)).blockingGet());

    assertThat(thrown).isInstanceOf(StaleSessionException.class).hasMessageContaining("'s1'");
    assertThat(messages(thrown.getSuppressed()))
        .containsExactly(
            "[SQLITE_BUSY] injected at execution 1", "[SQLITE_BUSY] injected at execution 2");
    assertThat(reader.getSession(APP, "alice", "s1").blockingGet().state()).containsEntry("k", 1);
  }

  @Test
  void fourFailedAttempts_thenTheFifthCommits_once() {
    failing.failEach(k -> k <= 4 ? busy(k) : null);

    Event stored = service.appendEvent(session, event(7)).blockingGet();

    assertThat(failing.failed()).isEqualTo(failing.executed().get(3));
    Session reloaded = reader.getSession(APP, "alice", "s1").blockingGet();
    assertThat(reloaded.events()).extracting(Event::id).containsExactly(stored.id());
    assertThat(reloaded.state()).containsEntry("k", 7);
    assertThat(reloaded.revision()).isEqualTo(1);
  }
}
