package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.state.Scope;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code secret:} scope on one backend: secrets read like session keys, and never reach a
 * stored event, the store in clear, a log line, {@code toString} or JSON. Subclasses say how to
 * open a service on the test's store (with or without an encryption key) and what the store holds.
 */
abstract class SecretStateContract {

  static final String APP = "secret_app";

  /** A value no test writes anywhere else, so that finding it anywhere is a leak. */
  final String token = "sk-live-" + UUID.randomUUID();

  final String other = "pw-" + UUID.randomUUID();

  private final List<BaseSessionService> opened = new ArrayList<>();

  /**
   * A service on this test's store (the same store at every call): secrets in memory without a key,
   * encrypted with it.
   */
  protected abstract BaseSessionService open(@Nullable SecretKey key) throws Exception;

  /** Whether the store outlives a service (a database), so that reopening finds the sessions. */
  protected abstract boolean persistent();

  /**
   * Everything the store holds or was handed, as text (a database's files or rows, what a store was
   * given): a secret value must never be found in it.
   */
  protected abstract String storedText() throws Exception;

  /** Releases the store. */
  protected void closeStore() throws Exception {}

  @AfterEach
  void closeAll() throws Exception {
    for (BaseSessionService s : opened) {
      if (s instanceof AutoCloseable c) {
        c.close();
      }
    }
    closeStore();
  }

  BaseSessionService service(@Nullable SecretKey key) throws Exception {
    BaseSessionService s = open(key);
    opened.add(s);
    return s;
  }

  static void close(BaseSessionService s) throws Exception {
    if (s instanceof AutoCloseable c) {
      c.close();
    }
  }

  static SecretKey newKey() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return new SecretKeySpec(bytes, "AES");
  }

  static Event event(Map<String, ?> delta) {
    return Event.builder()
        .invocationId("inv")
        .author("system")
        .actions(EventActions.builder().stateDelta(delta).build())
        .build();
  }

  static Map<String, Object> map(Object... kv) {
    Map<String, Object> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  /** Creates s1 with an initial secret, then appends another secret and a plain key. */
  Session sessionWithSecrets(BaseSessionService sessions) {
    Session s =
        sessions
            .createSession(APP, "alice", map("secret:api_key", token, "topic", "cats"), "s1")
            .blockingGet();
    Event stored =
        sessions
            .appendEvent(s, event(map("secret:db", Map.of("password", other), "mood", "ok")))
            .blockingGet();
    assertThat(stored.actions().stateDelta()).containsOnlyKeys("mood");
    return s;
  }

  void assertNoSecretIn(String text) {
    assertThat(text).doesNotContain(token).doesNotContain(other);
  }

  void assertNoSecretKeyIn(List<Event> events) {
    for (Event e : events) {
      assertThat(e.actions().stateDelta().keySet()).noneMatch(k -> Scope.of(k) == Scope.SECRET);
      assertNoSecretIn(e.toJson());
    }
  }

  @Test
  void secrets_readLikeSessionKeys_butNoStoredEventCarriesThem() throws Exception {
    BaseSessionService sessions = service(null);
    Session copy = sessionWithSecrets(sessions);

    assertThat(copy.state())
        .containsEntry("secret:api_key", token)
        .containsEntry("secret:db", Map.of("password", other));
    Session read = sessions.getSession(APP, "alice", "s1").blockingGet();
    assertThat(read.state())
        .containsEntry("secret:api_key", token)
        .containsEntry("secret:db", Map.of("password", other))
        .containsEntry("topic", "cats")
        .containsEntry("mood", "ok");
    assertNoSecretKeyIn(read.events());
    assertNoSecretKeyIn(sessions.listEvents(APP, "alice", "s1").blockingGet().events());
    assertNoSecretKeyIn(
        sessions
            .listEvents(APP, "alice", "s1", ListEventsRequest.builder().pageSize(1).build())
            .blockingGet()
            .events());
    assertThat(sessions.listSessions(APP, "alice").blockingGet().sessions().get(0).state())
        .containsEntry("secret:api_key", token);
    assertThat(
            sessions
                .listSessions(APP, "alice", ListSessionsRequest.builder().build())
                .blockingGet()
                .sessions()
                .get(0)
                .state())
        .containsEntry("secret:api_key", token);
    // Another session of the same user does not see them: secrets belong to one session.
    Session s2 = sessions.createSession(APP, "alice", null, "s2").blockingGet();
    assertThat(s2.state()).doesNotContainKey("secret:api_key");
    assertNoSecretIn(storedText());
  }

  @Test
  void secrets_areRemovedByNull_andReturnedValuesAreCopies() throws Exception {
    BaseSessionService sessions = service(null);
    Session s = sessionWithSecrets(sessions);
    Map<String, Object> removal = new HashMap<>();
    removal.put("secret:api_key", null);
    sessions.appendEvent(s, event(removal)).blockingGet();

    Session read = sessions.getSession(APP, "alice", "s1").blockingGet();
    assertThat(read.state()).doesNotContainKey("secret:api_key");
    assertThat(s.state()).doesNotContainKey("secret:api_key");
    @SuppressWarnings("unchecked")
    Map<String, Object> db = (Map<String, Object>) read.state().get("secret:db");
    db.put("password", "changed");
    assertThat(sessions.getSession(APP, "alice", "s1").blockingGet().state())
        .containsEntry("secret:db", Map.of("password", other));
  }

  @Test
  void toStringAndJson_showSecretsAsStars() throws Exception {
    BaseSessionService sessions = service(null);
    Session s = sessionWithSecrets(sessions);
    Session read = sessions.getSession(APP, "alice", "s1").blockingGet();

    for (Session x : List.of(s, read)) {
      assertThat(x.toString()).contains("secret:api_key=***").contains("topic=cats");
      assertThat(x.toJson()).contains("\"secret:api_key\":\"***\"");
      assertNoSecretIn(x.toString());
      assertNoSecretIn(x.toJson());
    }
    Event unstored = event(map("secret:api_key", token));
    assertThat(unstored.toString()).contains("***");
    assertNoSecretIn(unstored.toString());
    assertNoSecretIn(unstored.actions().toString());
  }

  @Test
  void deletingASession_forgetsItsSecrets_andANewOneWithItsIdStartsWithout() throws Exception {
    BaseSessionService sessions = service(null);
    sessionWithSecrets(sessions);
    sessions.deleteSession(APP, "alice", "s1").blockingAwait();

    Session again = sessions.createSession(APP, "alice", null, "s1").blockingGet();
    assertThat(again.state()).doesNotContainKeys("secret:api_key", "secret:db");
    assertThat(sessions.getSession(APP, "alice", "s1").blockingGet().state())
        .doesNotContainKeys("secret:api_key", "secret:db");
  }

  @Test
  void secretsAreConditionFree_andCannotBeIncrementedByTheStore() throws Exception {
    BaseSessionService sessions = service(null);
    Session s = sessionWithSecrets(sessions);
    // An expectation on a secret is not checked against storage (secrets are last-writer-wins).
    Event guarded =
        Event.builder()
            .author("system")
            .actions(
                EventActions.builder()
                    .putState("secret:api_key", "rotated")
                    .expectState("secret:api_key", "anything")
                    .build())
            .build();
    sessions.appendEvent(s, guarded).blockingGet();
    assertThat(sessions.getSession(APP, "alice", "s1").blockingGet().state())
        .containsEntry("secret:api_key", "rotated");

    Event increment =
        Event.builder()
            .author("system")
            .actions(EventActions.builder().incrementState("secret:n", 1).build())
            .build();
    assertThatThrownBy(() -> sessions.appendEvent(s, increment).blockingGet())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("secret:n")
        .hasMessageContaining("'s1'");
  }

  @Test
  void noLogLine_carriesASecretValue_evenAtDebug() throws Exception {
    List<ILoggingEvent> logged;
    try (LogCapture capture = LogCapture.everything(Level.ALL)) { // captured, not printed
      BaseSessionService sessions = service(persistent() ? newKey() : null);
      Session s = sessionWithSecrets(sessions);
      sessions.getSession(APP, "alice", "s1").blockingGet();
      sessions.appendEvent(s, event(map("secret:api_key", token + "2"))).blockingGet();
      sessions.listSessions(APP, "alice").blockingGet();
      logged = capture.events();
    }
    assertThat(logged).isNotEmpty(); // the appends are logged at DEBUG
    for (ILoggingEvent e : logged) {
      assertNoSecretIn(e.getFormattedMessage());
      if (e.getThrowableProxy() != null) {
        assertNoSecretIn(e.getThrowableProxy().getMessage() + "");
      }
    }
  }

  // ---- persistence ----

  @Test
  void withoutAKey_secretsStayInTheServicesMemory_andAreGoneAfterARestart() throws Exception {
    assumeTrue(persistent());
    BaseSessionService first = service(null);
    sessionWithSecrets(first);
    assertNoSecretIn(storedText());
    close(first);

    Session reread = service(null).getSession(APP, "alice", "s1").blockingGet();
    assertThat(reread.state()).containsEntry("topic", "cats").containsEntry("mood", "ok");
    assertThat(reread.state()).doesNotContainKeys("secret:api_key", "secret:db");
  }

  @Test
  void withAKey_secretsAreStoredEncrypted_andSurviveARestart() throws Exception {
    assumeTrue(persistent());
    SecretKey key = newKey();
    BaseSessionService first = service(key);
    Session s = sessionWithSecrets(first);
    first.appendEvent(s, event(map("secret:api_key", token + "-v2"))).blockingGet();
    String stored = storedText();
    assertNoSecretIn(stored);
    assertThat(stored).contains(SecretCipher.PREFIX); // the ciphertexts are there
    close(first);

    Session reread = service(key).getSession(APP, "alice", "s1").blockingGet();
    assertThat(reread.state())
        .containsEntry("secret:api_key", token + "-v2")
        .containsEntry("secret:db", Map.of("password", other))
        .containsEntry("topic", "cats");
    assertNoSecretKeyIn(reread.events());
  }

  @Test
  void withAnotherKey_orWithoutOne_aReadOfEncryptedSecretsFails_namingTheSession()
      throws Exception {
    assumeTrue(persistent());
    BaseSessionService first = service(newKey());
    sessionWithSecrets(first);
    close(first);

    BaseSessionService wrong = service(newKey());
    assertThatThrownBy(() -> wrong.getSession(APP, "alice", "s1").blockingGet())
        .isInstanceOf(SessionException.class)
        .hasMessageContaining("'s1'")
        .hasMessageContaining("'alice'")
        .hasMessageContaining("'" + APP + "'")
        .hasMessageContaining("secretKey");
    BaseSessionService none = service(null);
    assertThatThrownBy(() -> none.getSession(APP, "alice", "s1").blockingGet())
        .isInstanceOf(SessionException.class)
        .hasMessageContaining("'s1'")
        .hasMessageContaining("secretKey");
  }

  @Test
  void aCiphertextCopiedToAnotherSession_doesNotDecrypt() throws Exception {
    assumeTrue(persistent());
    SecretKey key = newKey();
    BaseSessionService sessions = service(key);
    sessionWithSecrets(sessions);
    Optional<String> moved = copySecretRow("s1", "s2");
    assumeTrue(moved.isPresent());
    assertThatThrownBy(() -> sessions.getSession(APP, "alice", "s2").blockingGet())
        .isInstanceOf(SessionException.class)
        .hasMessageContaining("'s2'");
  }

  /**
   * Creates session s2 of alice and copies the stored (encrypted) {@code secret:api_key} of {@code
   * from} into it, as an attacker with write access to the database would; empty if the backend
   * cannot.
   */
  protected Optional<String> copySecretRow(String from, String to) throws Exception {
    return Optional.empty();
  }
}
