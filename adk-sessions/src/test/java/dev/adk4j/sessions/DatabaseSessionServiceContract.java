package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.adk4j.events.Event;
import dev.adk4j.internal.jdbc.JdbcSessionStore;
import dev.adk4j.testsupport.ChildJvm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What {@link DatabaseSessionService} promises beyond {@link SessionServiceContract}, on a real
 * database: restarts, several service instances on one store, a writer killed mid-loop, hostile
 * ids, corrupt rows, size limits, rollback of a failing append and index use. Subclasses say how to
 * make a fresh, empty store (a SQLite file, a PostgreSQL database).
 */
abstract class DatabaseSessionServiceContract extends SessionServiceContract {

  /** The JDBC URL of the current test's store. */
  protected String url;

  /** A JDBC URL of a fresh, empty store. */
  protected abstract String newStoreUrl() throws Exception;

  /** How this database spells a JSON parameter in SQL. */
  protected abstract String jsonParameter();

  /** Text the JSON column accepts but that is not valid JSON, if the database allows any. */
  protected abstract Optional<String> malformedJson();

  /** Makes every insert of {@code key} into {@code adk_user_state} fail. */
  protected abstract void installFailingTrigger(Connection c, String key) throws SQLException;

  /** Inserts events 1..n (id {@code e<i>}, timestamp i) into the session with primary key pk. */
  protected abstract void bulkInsertEvents(Connection c, long pk, int n) throws SQLException;

  /** Asserts that {@code plan} reads the last 20 events through the index, 20 rows. */
  protected abstract void assertReadsLast20ThroughTheIndex(List<String> plan);

  /**
   * Whether the database's plans depend only on the query and the schema (SQLite, without
   * statistics), so that they must be the same at 1,000 and at 100,000 sessions.
   */
  protected boolean plansIgnoreTableSizes() {
    return false;
  }

  /**
   * Inserts sessions {@code from..to} of {@code user}: id {@code b} + the number on 6 digits,
   * updated at that second, each with one session key {@code n} = the number; then refreshes the
   * planner's statistics.
   */
  protected abstract void bulkInsertSessions(Connection c, String user, int from, int to)
      throws SQLException;

  /**
   * Asserts that {@code plan} reads a page of sessions through {@code adk_sessions_by_update}, in
   * its order (no sort step), starting at the token's position, and reads {@code rows} rows.
   */
  protected abstract void assertReadsSessionPageThroughTheIndex(List<String> plan, int rows);

  /** Asserts that {@code plan} reads {@code table} only through an index, never whole. */
  protected abstract void assertReadsThroughAnIndex(List<String> plan, String table);

  /**
   * Asserts that {@code plan} reads events by a range of the primary key starting after a sequence
   * number ({@code seq > ?}), {@code rows} rows.
   */
  protected abstract void assertReadsEventsFromSeqThroughTheKey(List<String> plan, int rows);

  /**
   * A new store already holding the session schema, for the service each test starts with; the
   * default is {@link #newStoreUrl()} (the service migrates it). A backend whose migrations cost
   * much may hand out copies of a store migrated once (the tests of starting and migrating use
   * {@link #newStoreUrl()} themselves).
   */
  protected String newMigratedStoreUrl() throws Exception {
    return newStoreUrl();
  }

  @Override
  protected BaseSessionService createService() throws Exception {
    url = newMigratedStoreUrl();
    return open();
  }

  /** Another service instance on the current test's store. */
  protected DatabaseSessionService open() {
    return open(DatabaseSessionConfig.builder().minimumIdle(0).build());
  }

  protected DatabaseSessionService open(DatabaseSessionConfig config) {
    return new DatabaseSessionService(url, config);
  }

  protected Connection raw() throws SQLException {
    return DriverManager.getConnection(url);
  }

  private long pkOf(Connection c, String user, String sessionId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT pk FROM adk_sessions WHERE app_name = ? AND user_id = ? AND session_id = ?")) {
      ps.setString(1, APP);
      ps.setString(2, user);
      ps.setString(3, sessionId);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).as("session %s exists", sessionId).isTrue();
        return rs.getLong(1);
      }
    }
  }

  // ---- restart and several instances ----

  @Test
  void restart_findsSessionsEventsAndAppAndUserStateIntact() {
    Session s1 = create("alice", "s1", map("app:theme", "dark", "user:name", "Alice"));
    append(s1, map("k", List.of(1, 2), "user:visits", 1));
    service.appendEvent(s1, textEvent("hello", 5000L)).blockingGet();
    create("bob", "s2", map("mine", true));
    ((DatabaseSessionService) service).close();

    service = open();
    Session reloaded = get("alice", "s1");
    assertThat(reloaded.state())
        .containsEntry("app:theme", "dark")
        .containsEntry("user:name", "Alice")
        .containsEntry("user:visits", 1)
        .containsEntry("k", List.of(1, 2));
    assertThat(reloaded.events()).hasSize(2);
    assertThat(reloaded.events().get(1).stringifyContent()).isEqualTo("hello");
    assertThat(reloaded.revision()).isEqualTo(2);
    assertThat(reloaded.lastUpdateTime()).isEqualTo(s1.lastUpdateTime());
    assertThat(get("bob", "s2").state())
        .containsEntry("mine", true)
        .containsEntry("app:theme", "dark");
    append(reloaded, map("after", "restart"));
    assertThat(get("alice", "s1").state()).containsEntry("after", "restart");
  }

  @Test
  void closedService_refusesOperations() {
    DatabaseSessionService other = open();
    other.close();
    other.close();
    assertThatThrownBy(() -> other.getSession(APP, "alice", "s1").blockingGet())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  @Test
  void twoInstances_appendingToSessionsOfOneUser_loseNoUserKey() throws Exception {
    int threads = 4;
    int appends = 40;
    try (DatabaseSessionService other = open()) {
      List<BaseSessionService> services = List.of(service, other);
      for (int t = 0; t < threads; t++) {
        services.get(t % 2).createSession(APP, "alice", null, "s" + t).blockingGet();
      }
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CyclicBarrier start = new CyclicBarrier(threads);
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        BaseSessionService mine = services.get(t % 2);
        futures.add(
            pool.submit(
                () -> {
                  Session s = mine.getSession(APP, "alice", "s" + thread).blockingGet();
                  start.await();
                  for (int i = 0; i < appends; i++) {
                    mine.appendEvent(
                            s, event(map("user:t" + thread + "_" + i, i, "own" + i, thread)))
                        .blockingGet();
                  }
                  return null;
                }));
      }
      try {
        for (Future<?> f : futures) {
          f.get(2, TimeUnit.MINUTES);
        }
      } finally {
        pool.shutdownNow();
      }
      for (BaseSessionService reader : services) {
        for (int t = 0; t < threads; t++) {
          Session s = reader.getSession(APP, "alice", "s" + t).blockingGet();
          assertThat(s.events()).hasSize(appends);
          for (int other2 = 0; other2 < threads; other2++) {
            for (int i = 0; i < appends; i++) {
              assertThat(s.state()).containsEntry("user:t" + other2 + "_" + i, i);
            }
          }
        }
      }
    }
  }

  @Test
  void twoInstances_staleCopyFromOne_isRefused_andNothingChanges() {
    create("alice", "s1", map("k", 0));
    try (DatabaseSessionService other = open()) {
      Session mine = get("alice", "s1");
      Session theirs = other.getSession(APP, "alice", "s1").blockingGet();
      other.appendEvent(theirs, event(map("k", 1))).blockingGet();

      assertThatThrownBy(() -> append(mine, map("k", 2, "user:x", 1, "app:y", 1)))
          .isInstanceOf(StaleSessionException.class)
          .hasMessageContaining("revision 0")
          .hasMessageContaining("revision 1");
      assertThat(mine.revision()).isZero();
      Session reloaded = other.getSession(APP, "alice", "s1").blockingGet();
      assertThat(reloaded.state()).containsEntry("k", 1).doesNotContainKeys("user:x", "app:y");
      assertThat(reloaded.events()).hasSize(1);
    }
  }

  @Test
  void concurrentFirstCreateSessions_ofANewAppAndUser_allSucceed() throws Exception {
    int threads = 12;
    try (DatabaseSessionService other = open()) {
      List<BaseSessionService> services = List.of(service, other);
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CyclicBarrier start = new CyclicBarrier(threads);
      List<Future<Session>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        BaseSessionService mine = services.get(t % 2);
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  return mine.createSession(
                          "fresh_app",
                          "newcomer",
                          map(
                              "app:seen" + thread,
                              thread,
                              "user:seen" + thread,
                              thread,
                              "k",
                              thread),
                          "c" + thread)
                      .blockingGet();
                }));
      }
      try {
        for (Future<Session> f : futures) {
          assertThat(f.get(2, TimeUnit.MINUTES).id()).startsWith("c");
        }
      } finally {
        pool.shutdownNow();
      }
      List<Session> sessions =
          service.listSessions("fresh_app", "newcomer").blockingGet().sessions();
      assertThat(sessions).hasSize(threads);
      for (int t = 0; t < threads; t++) {
        assertThat(sessions.get(0).state())
            .containsEntry("app:seen" + t, t)
            .containsEntry("user:seen" + t, t);
      }
    }
  }

  // ---- durability ----

  /**
   * Starts {@code main} in a child JVM on this test's class path, with arguments (this store's URL,
   * the app, {@code user}, {@code session}); its standard error is discarded.
   */
  private Process startChild(Class<?> main, String user, String session) throws Exception {
    return new ProcessBuilder(ChildJvm.command(main, url, APP, user, session))
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
  }

  @Test
  void killedWriter_losesNoAcknowledgedAppend_andLeavesNoHalfAppend() throws Exception {
    create("alice", "durable", map());
    Session neighbour = create("alice", "neighbour", map());
    Process writer = startChild(DurabilityWriter.class, "alice", "durable");
    // Once the writer appends, this process writes the same user's scope from another session:
    // two processes contend for the database, as two application instances would. (Not before:
    // while the child JVM starts, these appends would only spend the machine's CPU.)
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger neighbourCount = new AtomicInteger();
    ExecutorService pool = Executors.newSingleThreadExecutor();
    Future<Integer> neighbourAppends = null;
    int acked = -1;
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      String line;
      // The kill comes while both write: after the writer's 30th acknowledgement and the
      // neighbour's 10th append.
      while (acked < 30 || neighbourCount.get() < 10) {
        if (neighbourAppends != null && neighbourAppends.isDone()) {
          break; // it failed: get() below throws its exception
        }
        line = out.readLine();
        assertThat(line).as("writer output after ACK %d (did it start?)", acked).isNotNull();
        assertThat(System.nanoTime())
            .as(
                "90 s and the writer at ACK %d, the neighbour at %d appends",
                acked, neighbourCount.get())
            .isLessThan(deadline);
        if (!line.startsWith("ACK ")) {
          continue;
        }
        acked = Integer.parseInt(line.substring(4));
        if (neighbourAppends == null) {
          neighbourAppends =
              pool.submit(
                  () -> {
                    int i = 0;
                    while (!stop.get()) {
                      append(neighbour, map("user:p" + i, i));
                      neighbourCount.set(++i);
                    }
                    return i;
                  });
        }
      }
      // SIGKILL on Linux: no shutdown hooks, no pool close. Through the ProcessHandle, which,
      // unlike Process.destroyForcibly(), leaves the pipe open for the lines already written.
      writer.toHandle().destroyForcibly();
      assertThat(writer.waitFor(30, TimeUnit.SECONDS)).isTrue();
      // Lines written before the kill are acknowledgements too.
      while ((line = out.readLine()) != null) {
        if (line.startsWith("ACK ")) {
          acked = Integer.parseInt(line.substring(4));
        }
      }
    } finally {
      writer.destroyForcibly();
      stop.set(true);
      pool.shutdown();
    }
    assertThat(neighbourAppends).isNotNull();
    int neighbours = neighbourAppends.get(1, TimeUnit.MINUTES);
    assertThat(neighbours).isPositive();

    ((DatabaseSessionService) service).close();
    service = open();
    Session s = get("alice", "durable");
    int n = s.events().size();
    // Every acknowledged append is there; at most one more was committed but not yet printed.
    assertThat(n).isBetween(acked + 1, acked + 2);
    for (int i = 0; i < n; i++) {
      Event e = s.events().get(i);
      assertThat(e.id()).isEqualTo("e" + i);
      assertThat(e.actions().stateDelta())
          .containsEntry("k" + i, i)
          .doesNotContainKey("temp:scratch");
    }
    // No event without its state change, no state change without its event.
    assertThat(s.revision()).isEqualTo(n);
    assertThat(s.state()).containsEntry("counter", n - 1).containsEntry("user:last", n - 1);
    for (int i = 0; i < n; i++) {
      assertThat(s.state()).containsEntry("k" + i, i);
    }
    assertThat(s.state()).doesNotContainKey("k" + n).doesNotContainKey("temp:scratch");
    for (int i = 0; i < neighbours; i++) {
      assertThat(s.state()).containsEntry("user:p" + i, i);
    }
    assertThat(s.state()).hasSize(n + 2 + neighbours);
    assertThat(get("alice", "neighbour").events()).hasSize(neighbours);
    append(s, map("after", "kill"));
  }

  // ---- values ----

  @Test
  void numbers_readBackExactlyAsTheirJsonRoundTrip_inStateAndEvents() {
    List<Object> numbers =
        List.of(
            1.0e20,
            1.5e300,
            Double.MAX_VALUE,
            Double.MIN_VALUE,
            1.0e-7,
            0.1 + 0.2,
            3.0,
            -2.5,
            0.1f,
            Long.MAX_VALUE,
            Long.MIN_VALUE,
            Integer.MAX_VALUE + 1L,
            new java.math.BigInteger("123456789012345678901234567890"),
            new java.math.BigDecimal("1.25"));
    Map<String, Object> delta = new HashMap<>();
    for (int i = 0; i < numbers.size(); i++) {
      delta.put("n" + i, numbers.get(i));
      delta.put("user:n" + i, List.of(numbers.get(i)));
    }
    Session s = create("alice", "s1", map());
    append(s, delta);

    Session reloaded = get("alice", "s1");
    for (int i = 0; i < numbers.size(); i++) {
      Object expected = dev.adk4j.internal.Json.normalize("n" + i, numbers.get(i));
      assertThat(reloaded.state().get("n" + i))
          .as("state n%d = %s", i, numbers.get(i))
          .isEqualTo(expected)
          .hasSameClassAs(expected);
      assertThat(reloaded.state().get("user:n" + i)).isEqualTo(List.of(expected));
      assertThat(reloaded.events().get(0).actions().stateDelta().get("n" + i))
          .as("event delta n%d", i)
          .isEqualTo(expected);
    }
    assertThat(reloaded.events().get(0)).isEqualTo(s.events().get(0));
  }

  @Test
  void tempKeys_reachNoTable() throws Exception {
    Session s = create("alice", "s1", map("temp:init", 1, "k", 1));
    append(s, map("temp:a", "temp-secret", "user:u", 1, "app:a", 1));
    assertThat(s.state()).doesNotContainKey("temp:a").containsEntry("user:u", 1);
    try (Connection c = raw();
        java.sql.Statement st = c.createStatement()) {
      for (String table : List.of("adk_app_state", "adk_user_state", "adk_session_state")) {
        try (ResultSet rs =
            st.executeQuery("SELECT count(*) FROM " + table + " WHERE state_key LIKE 'temp:%'")) {
          rs.next();
          assertThat(rs.getInt(1)).as(table).isZero();
        }
      }
      try (ResultSet rs = st.executeQuery("SELECT event FROM adk_events")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).doesNotContain("temp:").doesNotContain("temp-secret");
      }
    }
  }

  // ---- hostile and broken input ----

  @Test
  void hostileIdsAndKeys_areStoredAndFoundVerbatim() {
    List<String> hostile =
        List.of(
            "it's",
            "\"quoted\"",
            "'; DROP TABLE adk_sessions; --",
            "%_*?\\[]",
            "日本語 / ελληνικά / עברית / 🦆🙂",
            " leading and trailing ",
            "x".repeat(300),
            "é".repeat(150) + "🦆".repeat(50)); // 500 bytes: ids are at most 512

    for (String id : hostile) {
      String app = "app " + id;
      String user = "user " + id;
      Session s = service.createSession(app, user, map("user:" + id, id, id, 1), id).blockingGet();
      service.appendEvent(s, event(map("app:" + id, id, id, 2))).blockingGet();

      Session loaded = service.getSession(app, user, id).blockingGet();
      assertThat(loaded).as("session %s", id).isNotNull();
      assertThat(loaded.id()).isEqualTo(id);
      assertThat(loaded.appName()).isEqualTo(app);
      assertThat(loaded.userId()).isEqualTo(user);
      assertThat(loaded.state())
          .containsEntry(id, 2)
          .containsEntry("user:" + id, id)
          .containsEntry("app:" + id, id);
      assertThat(service.listSessions(app, user).blockingGet().sessions())
          .extracting(Session::id)
          .containsExactly(id);
      assertThat(service.listEvents(app, user, id).blockingGet().events()).hasSize(1);
      assertThat(service.getSession(app, user, id + " ").blockingGet()).isNull();
      service.deleteSession(app, user, id).blockingAwait();
      assertThat(service.getSession(app, user, id).blockingGet()).isNull();
    }
    assertThat(service.listSessions(APP, "alice").blockingGet().sessions()).isEmpty();
    Session after = create("alice", "still-works", map());
    assertThat(get("alice", after.id())).isNotNull();
  }

  @Test
  void listSessions_sortsByJavaStringOrder_whateverTheDatabaseCollation() {
    List<String> ids = List.of("b", "B", "a", "_", "é", "🦆", "\uFB01", "a2", "a10");
    for (String id : ids) {
      create("alice", id, map());
    }
    List<String> expected = new ArrayList<>(ids);
    expected.sort(null);
    assertThat(service.listSessions(APP, "alice").blockingGet().sessions())
        .extracting(Session::id)
        .containsExactlyElementsOf(expected);
  }

  @Test
  void corruptStoredEvent_failsReadsOfItsSessionNamingIt_andOtherSessionsStayReadable()
      throws Exception {
    Session s1 = create("alice", "s1", map());
    append(s1, map("k", 1));
    Session s2 = create("alice", "s2", map());
    append(s2, map("k", 2));
    try (Connection c = raw();
        PreparedStatement ps =
            c.prepareStatement(
                "UPDATE adk_events SET event = " + jsonParameter() + " WHERE session_pk = ?")) {
      ps.setString(1, "{\"timestamp\": \"yesterday\"}");
      ps.setLong(2, pkOf(c, "alice", "s1"));
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }

    assertThatThrownBy(() -> get("alice", "s1"))
        .isInstanceOf(SessionException.class)
        .hasMessageContaining("'s1'")
        .hasMessageContaining("'alice'")
        .hasMessageContaining(APP)
        .hasMessageContaining("event #1");
    assertThatThrownBy(() -> service.listEvents(APP, "alice", "s1").blockingGet())
        .isInstanceOf(SessionException.class)
        .hasMessageContaining("'s1'");
    assertThat(get("alice", "s1", GetSessionConfig.builder().numRecentEvents(0).build()).state())
        .containsEntry("k", 1);
    assertThat(get("alice", "s2").events()).hasSize(1);
    assertThat(service.listSessions(APP, "alice").blockingGet().sessions()).hasSize(2);
  }

  @Test
  void malformedStoredValue_isLeftOutOfReads_namedInALog_andFailsOnlyWritesThatMustReadIt()
      throws Exception {
    assumeTrue(malformedJson().isPresent(), "the JSON column accepts malformed text");
    create("alice", "s1", map("k", 1, "other", "kept"));
    create("alice", "s2", map("k", 2));
    try (Connection c = raw();
        PreparedStatement ps =
            c.prepareStatement(
                "UPDATE adk_session_state SET state_value = ? WHERE session_pk = ?"
                    + " AND state_key = 'k'")) {
      ps.setString(1, malformedJson().orElseThrow());
      ps.setLong(2, pkOf(c, "alice", "s1"));
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
    assertUnreadableValueIsQuarantined("s1", "k", Map.of("other", "kept"));
    assertThat(get("alice", "s2").state()).containsEntry("k", 2);
  }

  @Test
  void unreadableAppValue_isLeftOutForEveryUser_andTheirSessionsStayServed() throws Exception {
    create("alice", "s1", map("app:cfg", map("mode", "on"), "app:other", 1));
    create("bob", "s2", map());
    // Valid JSON that Jackson refuses (nested deeper than its limit of 1,000): any database
    // accepts it, as a store written by another program could hold.
    String tooDeep = "[".repeat(1200) + "]".repeat(1200);
    try (Connection c = raw();
        PreparedStatement ps =
            c.prepareStatement(
                "UPDATE adk_app_state SET state_value = "
                    + jsonParameter()
                    + " WHERE state_key = 'app:cfg'")) {
      ps.setString(1, tooDeep);
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
    try (LogCapture quiet = LogCapture.of("dev.adk4j.internal.jdbc")) { // the ERRORs, not printed
      assertThat(get("bob", "s2").state()).containsOnlyKeys("app:other");
      assertThat(service.listSessions(APP, "bob").blockingGet().sessions()).hasSize(1);
      assertThat(create("carol", "s3", map("k", 1)).state()).containsOnlyKeys("k", "app:other");
      assertThat(quiet.errors()).isNotEmpty();
    }
    assertUnreadableValueIsQuarantined("s1", "app:cfg", Map.of("app:other", 1));
    assertThat(get("bob", "s2").state()).containsEntry("app:cfg", "repaired");
  }

  /**
   * A value that cannot be read is left out of the session's state (logged at ERROR naming key and
   * session, never the value); an increment of it fails naming the key; a blind write repairs it.
   */
  private void assertUnreadableValueIsQuarantined(
      String session, String key, Map<String, Object> others) {
    try (LogCapture logs = LogCapture.of("dev.adk4j.internal.jdbc")) {
      Session read = get("alice", session);
      assertThat(read.state()).doesNotContainKey(key).containsAllEntriesOf(others);
      assertThat(logs.errors())
          .anySatisfy(
              line -> assertThat(line).contains("'" + key + "'", "'" + session + "'", "repair"));
      Event increment =
          Event.builder()
              .invocationId("inv")
              .author("agent")
              .actions(
                  dev.adk4j.events.EventActions.builder().stateIncrements(Map.of(key, 1L)).build())
              .build();
      assertThatThrownBy(() -> service.appendEvent(read, increment).blockingGet())
          .isInstanceOf(SessionException.class)
          .hasMessageContaining("'" + key + "'")
          .hasMessageContaining("repair");
      Session again = get("alice", session);
      append(again, map(key, "repaired"));
      assertThat(get("alice", session).state()).containsEntry(key, "repaired");
    }
  }

  @Test
  void aStoreHoldingAHugeKeyInsideAValue_writtenBeforeTheBound_servesEveryUser() throws Exception {
    create("alice", "s1", map("app:cfg", map("mode", "on")));
    create("bob", "s2", map("k", 1));
    String huge = "x".repeat(50_001);
    try (Connection c = raw();
        PreparedStatement ps =
            c.prepareStatement(
                "UPDATE adk_app_state SET state_value = "
                    + jsonParameter()
                    + " WHERE state_key = 'app:cfg'")) {
      ps.setString(1, "{\"" + huge + "\": 1}");
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
    for (String user : List.of("alice", "bob")) {
      Session s = get(user, user.equals("alice") ? "s1" : "s2");
      assertThat(s.state().get("app:cfg")).isEqualTo(Map.of(huge, 1));
      assertThat(service.listSessions(APP, user).blockingGet().sessions()).hasSize(1);
    }
    assertThat(create("carol", "s3", map()).state()).containsKey("app:cfg");
    // Writing it again is refused by the bound; writing something else repairs it.
    Session bob = get("bob", "s2");
    assertThatThrownBy(() -> append(bob, map("app:cfg", map(huge, 2))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("State.MAX_KEY_BYTES");
    append(get("bob", "s2"), map("app:cfg", map("mode", "off")));
    assertThat(get("alice", "s1").state()).containsEntry("app:cfg", Map.of("mode", "off"));
  }

  @Override
  protected BaseSessionService createService(SessionLimits limits) {
    return open(
        DatabaseSessionConfig.builder()
            .maxValueBytes(limits.maxValueBytes())
            .maxEventBytes(limits.maxEventBytes())
            .build());
  }

  // ---- atomicity ----

  @Test
  void failureInsideAnAppend_rollsBackTheEventTheRevisionAndEveryScope() throws Exception {
    Session s = create("alice", "s1", map("k", 0, "user:u", 0, "app:a", 0));
    try (Connection c = raw()) {
      installFailingTrigger(c, "user:boom");
    }
    // Keys apply app, then user, then session scope, each in key order: the failure comes after
    // the revision bump, the event insert and the app: write.
    assertThatThrownBy(
            () -> append(s, map("app:a", 1, "user:boom", 1, "user:u", 1, "k", 1, "temp:t", 1)))
        .isInstanceOf(SessionException.class)
        .hasMessageContaining("'s1'");

    assertThat(s.revision()).isZero();
    assertThat(s.state()).containsEntry("k", 0).doesNotContainKey("temp:t");
    assertThat(s.events()).isEmpty();
    Session reloaded = get("alice", "s1");
    assertThat(reloaded.revision()).isZero();
    assertThat(reloaded.events()).isEmpty();
    assertThat(reloaded.state())
        .containsEntry("k", 0)
        .containsEntry("user:u", 0)
        .containsEntry("app:a", 0)
        .doesNotContainKey("user:boom");
    append(s, map("k", 2));
    assertThat(get("alice", "s1").state()).containsEntry("k", 2);
  }

  // ---- cost ----

  @Test
  void lastNEvents_ofALongSession_areReadThroughTheIndex() throws Exception {
    create("alice", "long", map());
    try (Connection c = raw()) {
      bulkInsertEvents(c, pkOf(c, "alice", "long"), 10_000);
    }
    Session s = get("alice", "long", GetSessionConfig.builder().numRecentEvents(20).build());
    assertThat(s.events()).extracting(Event::id).first().isEqualTo("e9981");
    assertThat(s.events()).extracting(Event::id).last().isEqualTo("e10000");
    assertThat(s.events()).hasSize(20);
    assertThat(
            get("alice", "long", GetSessionConfig.builder().afterTimestamp(ofMillis(9995)).build())
                .events())
        .extracting(Event::id)
        .containsExactly("e9995", "e9996", "e9997", "e9998", "e9999", "e10000");

    try (JdbcSessionStore store =
        JdbcSessionStore.open(url, null, null, DatabaseSessionConfig.defaults())) {
      assertReadsLast20ThroughTheIndex(store.explainRecentEvents(APP, "alice", "long", 20));
    }
  }

  @Test
  void sessionPage_andGetSession_readThroughIndexes_alikeAt1000And100000Sessions()
      throws Exception {
    create("alice", "long", map("k", 1));
    try (Connection c = raw()) {
      long pk = pkOf(c, "alice", "long");
      bulkInsertEvents(c, pk, 10_000);
      try (PreparedStatement ps =
          c.prepareStatement("UPDATE adk_sessions SET revision = 10000 WHERE pk = ?")) {
        ps.setLong(1, pk);
        ps.executeUpdate();
      }
    }
    Session longOne = get("alice", "long", GetSessionConfig.builder().numRecentEvents(1).build());
    service.appendEvent(longOne, compactionEvent("sum", 1, 10_000, 20_000)).blockingGet();
    service.appendEvent(longOne, textEvent("after 1", 20_001)).blockingGet();
    service.appendEvent(longOne, textEvent("after 2", 20_002)).blockingGet(); // revision 10003
    GetSessionConfig fromCompaction = GetSessionConfig.builder().fromLatestCompaction(true).build();
    GetSessionConfig sinceRevision = GetSessionConfig.builder().afterRevision(10_001).build();

    List<Map<String, List<String>>> plansBySize = new ArrayList<>();
    for (int[] range : new int[][] {{1, 1_000}, {1_001, 100_000}}) {
      try (Connection c = raw()) {
        bulkInsertSessions(c, "crowd", range[0], range[1]);
      }
      int n = range[1];
      String what = n + " sessions";
      ListSessionsResponse first =
          service
              .listSessions(APP, "crowd", ListSessionsRequest.builder().pageSize(10).build())
              .blockingGet();
      assertThat(first.sessions())
          .as(what)
          .extracting(Session::id)
          .containsExactly(
              java.util.stream.IntStream.range(0, 10)
                  .mapToObj(i -> String.format("b%06d", n - i))
                  .toArray(String[]::new));
      assertThat(first.sessions().get(0).state()).containsEntry("n", n).hasSize(1);
      ListSessionsResponse second =
          service
              .listSessions(
                  APP,
                  "crowd",
                  ListSessionsRequest.builder()
                      .pageSize(10)
                      .pageToken(first.nextPageToken().orElseThrow())
                      .build())
              .blockingGet();
      assertThat(second.sessions())
          .as(what)
          .extracting(Session::id)
          .startsWith(String.format("b%06d", n - 10))
          .endsWith(String.format("b%06d", n - 19));
      Session last = first.sessions().get(9);

      try (JdbcSessionStore store =
          JdbcSessionStore.open(url, null, null, DatabaseSessionConfig.defaults())) {
        Map<String, List<String>> page =
            store.explainListSessions(APP, "crowd", 11, last.lastUpdateTime(), last.id());
        Map<String, List<String>> plans = new java.util.LinkedHashMap<>();
        page.forEach((k, v) -> plans.put("page " + k, v));
        assertReadsSessionPageThroughTheIndex(page.get("page"), 11);
        assertReadsThroughAnIndex(page.get("state"), "adk_session_state");
        Map<String, List<String>> firstPage =
            store.explainListSessions(APP, "crowd", 11, null, null);
        assertThat(String.join("\n", firstPage.get("page")))
            .as(what)
            .contains("adk_sessions_by_update");

        Map<String, List<String>> one =
            store.explainGetSession(APP, "crowd", "b000500", Optional.empty());
        assertReadsThroughAnIndex(one.get("session"), "adk_sessions");
        assertReadsThroughAnIndex(one.get("state"), "adk_session_state");
        one.forEach((k, v) -> plans.put("get " + k, v));
        plansBySize.add(plans);

        Map<String, List<String>> compacted =
            store.explainGetSession(APP, "alice", "long", Optional.of(fromCompaction));
        assertReadsThroughAnIndex(compacted.get("session"), "adk_sessions");
        assertReadsEventsFromSeqThroughTheKey(compacted.get("events"), 3);
        assertReadsEventsFromSeqThroughTheKey(
            store.explainGetSession(APP, "alice", "long", Optional.of(sinceRevision)).get("events"),
            2);
      }
      assertThat(texts(get("alice", "long", fromCompaction)))
          .containsExactly("C:sum", "after 1", "after 2");
      assertThat(texts(get("alice", "long", sinceRevision))).containsExactly("after 1", "after 2");
      assertThat(get("crowd", "b000500").state()).containsEntry("n", 500);
    }
    if (plansIgnoreTableSizes()) {
      assertThat(plansBySize.get(1)).isEqualTo(plansBySize.get(0));
    }
    ListEventsResponse newest =
        service
            .listEvents(
                APP,
                "alice",
                "long",
                ListEventsRequest.builder().newestFirst(true).pageSize(4).build())
            .blockingGet();
    assertThat(newest.events()).extracting(Event::id).endsWith("e10000").hasSize(4);
  }

  // ---- compaction bookkeeping ----

  private Long lastCompactionSeq(String user, String id) throws SQLException {
    try (Connection c = raw();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT last_compaction_seq FROM adk_sessions"
                    + " WHERE app_name = ? AND user_id = ? AND session_id = ?")) {
      ps.setString(1, APP);
      ps.setString(2, user);
      ps.setString(3, id);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        long v = rs.getLong(1);
        return rs.wasNull() ? null : v;
      }
    }
  }

  @Test
  void lastCompactionSeq_isSetByTheAppend_andSurvivesARestart() throws Exception {
    GetSessionConfig fromCompaction = GetSessionConfig.builder().fromLatestCompaction(true).build();
    Session s = create("alice", "s1", map());
    service.appendEvent(s, textEvent("p1", 1000L)).blockingGet();
    assertThat(lastCompactionSeq("alice", "s1")).isNull();
    service.appendEvent(s, compactionEvent("one", 1000L, 1000L, 2000L)).blockingGet();
    service.appendEvent(s, textEvent("p2", 3000L)).blockingGet();
    assertThat(lastCompactionSeq("alice", "s1")).isEqualTo(2L);

    ((DatabaseSessionService) service).close();
    service = open();
    assertThat(texts(get("alice", "s1", fromCompaction))).containsExactly("C:one", "p2");
    Session reloaded = get("alice", "s1");
    service.appendEvent(reloaded, compactionEvent("two", 1000L, 3000L, 4000L)).blockingGet();
    assertThat(lastCompactionSeq("alice", "s1")).isEqualTo(4L);
    // A failed append (stale copy) leaves it as it was.
    assertThatThrownBy(
            () -> service.appendEvent(s, compactionEvent("x", 1L, 2L, 5000L)).blockingGet())
        .isInstanceOf(StaleSessionException.class);
    assertThat(lastCompactionSeq("alice", "s1")).isEqualTo(4L);
    assertThat(texts(get("alice", "s1", fromCompaction))).containsExactly("C:two");
  }

  @Test
  void schemaV3_onAStoreWrittenBeforeIt_findsEachSessionsLatestCompaction() throws Exception {
    Session s = create("alice", "s1", map());
    service.appendEvent(s, compactionEvent("one", 1L, 1L, 1000L)).blockingGet();
    service.appendEvent(s, textEvent("p1", 2000L)).blockingGet();
    service.appendEvent(s, compactionEvent("two", 1L, 2000L, 3000L)).blockingGet();
    service.appendEvent(s, textEvent("p2", 4000L)).blockingGet();
    Session plain = create("alice", "s2", map());
    service.appendEvent(plain, textEvent("q1", 1000L)).blockingGet();
    ((DatabaseSessionService) service).close();
    // Back to schema version 2 (the columns, tables and indexes gone, the history forgetting 3
    // to 13, which Flyway would otherwise refuse to apply 3 and 4 under).
    try (Connection c = raw();
        java.sql.Statement st = c.createStatement()) {
      st.execute("DROP TABLE adk_eval_sets");
      st.execute("DROP TABLE adk_eval_results");
      st.execute("DELETE FROM adk_schema_history WHERE version = '13'");
      st.execute("DROP TABLE adk_state_history");
      st.execute("DROP TABLE adk_artifacts"); // version 14, above them
      st.execute("DROP TABLE adk_session_waiters"); // version 15
      st.execute("DELETE FROM adk_schema_history WHERE version IN ('11', '12', '14', '15')");
      st.execute("DROP TABLE IF EXISTS adk_memories_fts");
      st.execute("DROP TABLE adk_memories");
      st.execute("DELETE FROM adk_schema_history WHERE version = '10'");
      st.execute("DROP INDEX adk_sessions_by_expiry");
      st.execute("DROP INDEX adk_sessions_by_idle");
      for (String column : List.of("ttl_millis", "expire_at", "trimmed_seq")) {
        st.execute("ALTER TABLE adk_sessions DROP COLUMN " + column);
      }
      st.execute("DELETE FROM adk_schema_history WHERE version = '5.1'");
      st.execute("DROP INDEX adk_events_by_id");
      st.execute("DELETE FROM adk_schema_history WHERE version = '4'");
      st.execute("DROP INDEX adk_sessions_by_update");
      st.execute("ALTER TABLE adk_sessions DROP COLUMN last_compaction_seq");
      st.execute("DELETE FROM adk_schema_history WHERE version = '3'");
    }

    service = open();
    assertThat(lastCompactionSeq("alice", "s1")).isEqualTo(3L);
    assertThat(lastCompactionSeq("alice", "s2")).isNull();
    GetSessionConfig fromCompaction = GetSessionConfig.builder().fromLatestCompaction(true).build();
    assertThat(texts(get("alice", "s1", fromCompaction))).containsExactly("C:two", "p2");
    assertThat(texts(get("alice", "s2", fromCompaction))).containsExactly("q1");
  }

  // ---- start ----

  @Test
  void concurrentFirstStarts_onOneNewStore_allMigrateOrFindTheSchema() throws Exception {
    String fresh = newStoreUrl();
    int starters = 4;
    ExecutorService pool = Executors.newFixedThreadPool(starters);
    CyclicBarrier start = new CyclicBarrier(starters);
    List<Future<DatabaseSessionService>> futures = new ArrayList<>();
    for (int t = 0; t < starters; t++) {
      futures.add(
          pool.submit(
              () -> {
                start.await();
                return new DatabaseSessionService(fresh);
              }));
    }
    List<DatabaseSessionService> started = new ArrayList<>();
    try {
      for (Future<DatabaseSessionService> f : futures) {
        started.add(f.get(2, TimeUnit.MINUTES));
      }
      Session s = started.get(0).createSession(APP, "alice", null, "s1").blockingGet();
      started.get(1).appendEvent(s, event(map("k", 1))).blockingGet();
      assertThat(started.get(starters - 1).getSession(APP, "alice", "s1").blockingGet().state())
          .containsEntry("k", 1);
    } finally {
      pool.shutdownNow();
      for (DatabaseSessionService service : started) {
        service.close();
      }
    }
  }

  @Test
  void migrateOff_validatesAnUpToDateSchema_andRefusesAnEmptyStore() throws Exception {
    create("alice", "s1", map("k", 1));
    DatabaseSessionConfig validateOnly = DatabaseSessionConfig.builder().migrate(false).build();
    try (DatabaseSessionService validated = open(validateOnly)) {
      assertThat(validated.getSession(APP, "alice", "s1").blockingGet().state())
          .containsEntry("k", 1);
    }
    String empty = newStoreUrl();
    assertThatThrownBy(() -> new DatabaseSessionService(empty, validateOnly).close())
        .isInstanceOf(SessionException.class)
        .hasMessageContaining("validate");
  }

  /** Runs one DDL statement on the store outside the service. */
  private void ddl(String statement) throws SQLException {
    try (Connection c = raw();
        java.sql.Statement st = c.createStatement()) {
      st.execute(statement);
    }
  }

  @Test
  void droppedTable_failsTheStart_namingIt_withAndWithoutMigrate() throws Exception {
    create("alice", "s1", map("k", 1));
    ddl("DROP TABLE adk_events");
    for (boolean migrate : List.of(true, false)) {
      DatabaseSessionConfig config = DatabaseSessionConfig.builder().migrate(migrate).build();
      assertThatThrownBy(() -> open(config).close())
          .as("migrate=%s", migrate)
          .isInstanceOf(SessionException.class)
          .hasMessageContaining("table adk_events is missing")
          .hasMessageContaining("adk_schema_history")
          .hasMessageContaining("Restore them from a backup");
    }
  }

  @Test
  void droppedColumn_failsTheStart_namingTableAndColumn() throws Exception {
    create("alice", "s1", map("k", 1));
    ddl("ALTER TABLE adk_sessions DROP COLUMN lease_until");
    ddl("ALTER TABLE adk_user_state DROP COLUMN state_value");
    for (boolean migrate : List.of(true, false)) {
      DatabaseSessionConfig config = DatabaseSessionConfig.builder().migrate(migrate).build();
      assertThatThrownBy(() -> open(config).close())
          .as("migrate=%s", migrate)
          .isInstanceOf(SessionException.class)
          .hasMessageContaining("column adk_sessions.lease_until is missing")
          .hasMessageContaining("column adk_user_state.state_value is missing")
          .hasMessageNotContaining("adk_events");
    }
  }

  @Test
  void invalidConfig_isRefusedNamingTheSetting() {
    assertThatThrownBy(() -> DatabaseSessionConfig.builder().maximumPoolSize(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maximumPoolSize");
    assertThatThrownBy(() -> DatabaseSessionConfig.builder().minimumIdle(11).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("minimumIdle");
    assertThatThrownBy(() -> DatabaseSessionConfig.builder().maxValueBytes(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxValueBytes");
    assertThatThrownBy(
            () -> DatabaseSessionConfig.builder().connectionTimeout(Duration.ofMillis(10)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("connectionTimeout");
    assertThatThrownBy(
            () -> DatabaseSessionConfig.builder().busyTimeout(Duration.ofSeconds(-1)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("busyTimeout");
    assertThatThrownBy(
            () -> DatabaseSessionConfig.builder().socketTimeout(Duration.ofMillis(500)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("socketTimeout");
    assertThatThrownBy(
            () -> DatabaseSessionConfig.builder().statementTimeout(Duration.ofMillis(-1)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("statementTimeout");
    assertThat(DatabaseSessionConfig.defaults().socketTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(DatabaseSessionConfig.defaults().statementTimeout())
        .isEqualTo(Duration.ofSeconds(25));
    DatabaseSessionConfig none =
        DatabaseSessionConfig.builder()
            .socketTimeout(Duration.ZERO)
            .statementTimeout(Duration.ZERO)
            .build();
    assertThat(none.toBuilder().build())
        .isEqualTo(none)
        .isNotEqualTo(DatabaseSessionConfig.defaults());
    assertThat(DatabaseSessionConfig.defaults().toBuilder().build())
        .isEqualTo(DatabaseSessionConfig.defaults());
  }

  @Test
  void unsupportedUrl_isRefusedNamingIt() {
    assertThatThrownBy(() -> new DatabaseSessionService("jdbc:mysql://localhost/db?password=s3"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("jdbc:mysql://localhost/db")
        .hasMessageNotContaining("s3");
  }

  private static java.time.Instant ofMillis(long millis) {
    return java.time.Instant.ofEpochMilli(millis);
  }

  // ---- leases across service instances (as across processes) ----

  /** A config whose leases follow {@code clock} and are renewed only when {@code renewals} runs. */
  private static DatabaseSessionConfig driven(
      Duration lease, MutableClock clock, ManualScheduler renewals) {
    return DatabaseSessionConfig.builder()
        .minimumIdle(0)
        .leaseDuration(lease)
        .clock(clock)
        .scheduler(renewals)
        .build();
  }

  @Test
  void lease_ofAStoppedHolder_isTakenOverWhenItExpires_andTheStaleHolderIsFenced()
      throws Exception {
    MutableClock clock = MutableClock.atFixedStart();
    ManualScheduler renewals = new ManualScheduler();
    DatabaseSessionConfig config = driven(Duration.ofSeconds(30), clock, renewals);
    create("alice", "s1", Map.of());
    DatabaseSessionService dead = open(config);
    SessionLease orphan = dead.acquireLease(APP, "alice", "s1", Duration.ZERO).blockingGet();
    Session deadCopy = dead.getSession(APP, "alice", "s1").blockingGet();
    orphan.attach(deadCopy);
    // The holder stops without releasing: its lease is no longer renewed.
    dead.close();
    try (DatabaseSessionService survivor = open(config)) {
      // Expired (30 s), but within the grace a late renewal gets (a third of the lease): busy.
      clock.advance(Duration.ofSeconds(39));
      assertThatThrownBy(
              () -> survivor.acquireLease(APP, "alice", "s1", Duration.ZERO).blockingGet())
          .isInstanceOf(SessionBusyException.class)
          .hasMessageContaining(orphan.owner());
      clock.advance(Duration.ofSeconds(2));
      SessionLease taken = survivor.acquireLease(APP, "alice", "s1", Duration.ZERO).blockingGet();
      assertThat(taken.tookOver()).isTrue();
      Session copy = survivor.getSession(APP, "alice", "s1").blockingGet();
      taken.attach(copy);
      survivor.appendEvent(copy, event(Map.of("k", 1))).blockingGet();
      // An append made under the lost lease (had the old holder come back) is refused.
      try (DatabaseSessionService revived = open(config)) {
        Session stale = revived.getSession(APP, "alice", "s1").blockingGet();
        orphan.attach(stale);
        assertThatThrownBy(() -> revived.appendEvent(stale, event(Map.of("k", 2))).blockingGet())
            .isInstanceOf(SessionBusyException.class)
            .hasMessageContaining("'s1'");
      }
      taken.close();
    } finally {
      renewals.shutdownNow();
    }
    assertThat(get("alice", "s1").state()).containsEntry("k", 1);
  }

  /**
   * Issue 33, defect 6: a process that crashed holding a lease does not make the next one wait out
   * the lease (a minute here): a waiter on the same host sees that the holder's process is gone and
   * takes the lease at once. A live holder in another process keeps it.
   */
  @Test
  void leaseOfAKilledProcess_onThisHost_isTakenAtOnce_aLiveOnesIsNot() throws Exception {
    create("alice", "s1", Map.of());
    Process holder = startChild(LeaseHolder.class, "alice", "s1");
    DatabaseSessionConfig minuteLease =
        DatabaseSessionConfig.builder().leaseDuration(Duration.ofMinutes(1)).build();
    try (BufferedReader out =
            new BufferedReader(
                new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
        DatabaseSessionService waiter = open(minuteLease);
        LogCapture logs = LogCapture.of("dev.adk4j.internal.jdbc")) {
      String line = out.readLine();
      assertThat(line).as("the holder's first line").startsWith("HELD ");
      String owner = line.substring(5);
      // Alive: the lease is its own, and a waiter is told who holds it and for how long.
      assertThatThrownBy(
              () -> waiter.acquireLease(APP, "alice", "s1", Duration.ofMillis(500)).blockingGet())
          .isInstanceOf(SessionBusyException.class)
          .hasMessageContaining(owner);
      assertThat(logs.lines())
          .anySatisfy(
              l -> assertThat(l).startsWith("INFO Waiting up to 500 ms").contains(owner, "'s1'"));

      holder.toHandle().destroyForcibly(); // SIGKILL: no release, no shutdown hook
      assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
      // Gone: taken well before the minute the lease had left (the wait allows 20 s at most).
      try (SessionLease lease =
          waiter.acquireLease(APP, "alice", "s1", Duration.ofSeconds(20)).blockingGet()) {
        Session copy = waiter.getSession(APP, "alice", "s1").blockingGet();
        lease.attach(copy);
        waiter.appendEvent(copy, event(Map.of("k", 1))).blockingGet();
      }
      assertThat(logs.lines())
          .anySatisfy(l -> assertThat(l).contains(owner, "no longer running").startsWith("WARN"));
    } finally {
      holder.destroyForcibly();
    }
    assertThat(get("alice", "s1").state()).containsEntry("k", 1);
  }

  /**
   * Issue 25: turns of four processes on one session are served in the order they arrived. This
   * process holds the session while the turns arrive, one at a time at known points (each child
   * says it queued before the next turn is sent), several per process and interleaved; then it
   * releases, and the stored turns must follow the arrival order.
   */
  @Test
  void waitersOfFourProcesses_areServedInArrivalOrder() throws Exception {
    create("alice", "q", Map.of());
    int[] arrivals = {0, 1, 2, 3, 1, 0, 3, 2, 2, 0};
    List<Process> children = new ArrayList<>();
    List<BufferedReader> outs = new ArrayList<>();
    List<java.io.Writer> ins = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    try {
      for (int i = 0; i < 4; i++) {
        Process child = startChild(QueuedTurns.class, "alice", "q");
        children.add(child);
        outs.add(
            new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)));
        ins.add(new java.io.OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8));
      }
      for (BufferedReader out : outs) {
        assertThat(nextProtocolLine(out)).isEqualTo("READY");
      }
      try (SessionLease gate =
          service.acquireLease(APP, "alice", "q", Duration.ZERO).blockingGet()) {
        for (int n = 0; n < arrivals.length; n++) {
          int p = arrivals[n];
          String label = "t" + n + "-p" + p;
          expected.add(label);
          ins.get(p).write("TURN " + label + "\n");
          ins.get(p).flush();
          assertThat(nextProtocolLine(outs.get(p))).isEqualTo("QUEUED " + label);
        }
        assertThat(gate.isHeld()).isTrue();
      }
      for (int p = 0; p < 4; p++) {
        ins.get(p).write("EXIT\n");
        ins.get(p).flush();
        int turns = 0;
        for (int a : arrivals) {
          turns += a == p ? 1 : 0;
        }
        for (int t = 0; t < turns; t++) {
          assertThat(nextProtocolLine(outs.get(p))).startsWith("DONE ");
        }
      }
      for (Process child : children) {
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
      }
    } finally {
      children.forEach(Process::destroyForcibly);
    }
    List<String> stored = new ArrayList<>();
    for (Event e : get("alice", "q").events()) {
      stored.add(String.valueOf(e.actions().stateDelta().get("turn")));
    }
    assertThat(stored).containsExactlyElementsOf(expected);
  }

  /** The next line of a {@link QueuedTurns} child that is part of its protocol, without "@@ ". */
  private static String nextProtocolLine(BufferedReader out) throws java.io.IOException {
    while (true) {
      String line = out.readLine();
      assertThat(line).as("a line from the child (did it stop?)").isNotNull();
      if (line.startsWith("@@ ")) {
        return line.substring(3);
      }
    }
  }

  /**
   * Issue 32: a lease on first append costs no transaction of its own. It guards nothing until the
   * first append through a copy attached to it, which takes it in its own statement; from then on
   * it fences other writers and is renewed as any lease, until closed.
   */
  @Test
  void leaseOnFirstAppend_isTakenByTheAppend_fencesOthers_isRenewed_andReleasedOnClose()
      throws Exception {
    MutableClock clock = MutableClock.atFixedStart();
    ManualScheduler renewals = new ManualScheduler();
    DatabaseSessionConfig config = driven(Duration.ofSeconds(30), clock, renewals);
    create("alice", "s1", Map.of());
    try (DatabaseSessionService a = open(config);
        DatabaseSessionService b = open(config)) {
      SessionLease lease = a.leaseOnFirstAppend(APP, "alice", "s1");
      assertThat(lease).isNotNull();
      // Not taken yet: it guards nothing, and closing a lease nobody took is harmless.
      b.acquireLease(APP, "alice", "s1", Duration.ZERO).blockingGet().close();
      assertThat(a.leaseStats().held()).isZero();

      Session copy = a.getSession(APP, "alice", "s1").blockingGet();
      lease.attach(copy);
      a.appendEvent(copy, event(Map.of("k", 1))).blockingGet();
      assertThat(lease.isHeld()).isTrue();
      assertThat(lease.tookOver()).isFalse();
      assertThat(a.leaseStats().held()).isEqualTo(1);
      assertThatThrownBy(() -> b.acquireLease(APP, "alice", "s1", Duration.ZERO).blockingGet())
          .isInstanceOf(SessionBusyException.class)
          .hasMessageContaining(lease.owner());
      Session outside = b.getSession(APP, "alice", "s1").blockingGet();
      assertThatThrownBy(() -> b.appendEvent(outside, event(Map.of("k", 9))).blockingGet())
          .isInstanceOf(SessionBusyException.class);
      // Renewed past its first expiry and grace (40 s) while held; its later appends go through.
      clock.advance(Duration.ofSeconds(25));
      renewals.runPeriodic();
      clock.advance(Duration.ofSeconds(25));
      assertThat(a.leaseStats().renewals()).isEqualTo(1);
      assertThatThrownBy(() -> b.acquireLease(APP, "alice", "s1", Duration.ZERO).blockingGet())
          .isInstanceOf(SessionBusyException.class);
      a.appendEvent(copy, event(Map.of("k", 2))).blockingGet();

      lease.close();
      assertThat(lease.isHeld()).isFalse();
      assertThat(a.leaseStats().held()).isZero();
      b.acquireLease(APP, "alice", "s1", Duration.ZERO).blockingGet().close();
    } finally {
      renewals.shutdownNow();
    }
    assertThat(get("alice", "s1").state()).containsEntry("k", 2);
    assertThat(get("alice", "s1").events()).hasSize(2);
  }

  /**
   * Issue 32: the first append of a lease on first append takes it only if nobody holds it, nobody
   * waits for it, and nobody appended since the copy was read; otherwise it stores nothing and
   * fails, and the caller queues with acquireLease. A waiter whose process stopped keeps its place
   * until the place lapses (a lease duration).
   */
  @Test
  void leaseOnFirstAppend_whileHeldAwaitedOrStale_storesNothing_andFails() throws Exception {
    MutableClock clock = MutableClock.atFixedStart();
    ManualScheduler renewals = new ManualScheduler();
    DatabaseSessionConfig config = driven(Duration.ofSeconds(30), clock, renewals);
    create("alice", "s1", Map.of());
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (DatabaseSessionService holderService = open(config);
        DatabaseSessionService a = open(config)) {
      SessionLease holder =
          holderService.acquireLease(APP, "alice", "s1", Duration.ZERO).blockingGet();
      SessionLease first = a.leaseOnFirstAppend(APP, "alice", "s1");
      Session copy = a.getSession(APP, "alice", "s1").blockingGet();
      first.attach(copy);
      assertThatThrownBy(() -> a.appendEvent(copy, event(Map.of("k", 1))).blockingGet())
          .isInstanceOf(SessionBusyException.class)
          .hasMessageContaining("'s1'")
          .hasMessageContaining(holder.owner());
      first.close();
      assertThat(copy.revision()).isZero();

      // A waiter queues behind the holder, then its process stops (its service closes).
      java.util.concurrent.CountDownLatch queued = new java.util.concurrent.CountDownLatch(1);
      DatabaseSessionService stopped = open(config);
      Future<?> waiter =
          pool.submit(
              () ->
                  stopped
                      .acquireLease(
                          APP, "alice", "s1", Duration.ofMinutes(10), w -> queued.countDown())
                      .blockingGet());
      assertThat(queued.await(30, TimeUnit.SECONDS)).as("the waiter queued").isTrue();
      stopped.close();
      assertThatThrownBy(() -> waiter.get(30, TimeUnit.SECONDS))
          .hasCauseInstanceOf(IllegalStateException.class);
      holder.close();
      // Free, but its place still stands: the append is refused.
      SessionLease second = a.leaseOnFirstAppend(APP, "alice", "s1");
      Session again = a.getSession(APP, "alice", "s1").blockingGet();
      second.attach(again);
      assertThatThrownBy(() -> a.appendEvent(again, event(Map.of("k", 2))).blockingGet())
          .isInstanceOf(SessionBusyException.class)
          .hasMessageContaining("waits for it");
      // A copy read before another append is stale: refused too, nothing stored.
      clock.advance(Duration.ofSeconds(31)); // the stopped waiter's place lapsed
      Session other = holderService.getSession(APP, "alice", "s1").blockingGet();
      holderService.appendEvent(other, event(Map.of("k", 3))).blockingGet();
      assertThatThrownBy(() -> a.appendEvent(again, event(Map.of("k", 4))).blockingGet())
          .isInstanceOf(StaleSessionException.class);
      // Read again, the append takes the lease.
      Session fresh = a.getSession(APP, "alice", "s1").blockingGet();
      second.attach(fresh);
      a.appendEvent(fresh, event(Map.of("k", 5))).blockingGet();
      assertThatThrownBy(
              () -> holderService.acquireLease(APP, "alice", "s1", Duration.ZERO).blockingGet())
          .isInstanceOf(SessionBusyException.class);
      second.close();
      holderService.acquireLease(APP, "alice", "s1", Duration.ZERO).blockingGet().close();
    } finally {
      pool.shutdownNow();
      renewals.shutdownNow();
    }
    List<Object> ks = new ArrayList<>();
    for (Event e : get("alice", "s1").events()) {
      ks.add(e.actions().stateDelta().get("k"));
    }
    assertThat(ks).containsExactly(3, 5);
  }

  @Test
  void heldLease_isRenewed_beyondItsDuration() throws Exception {
    MutableClock clock = MutableClock.atFixedStart();
    ManualScheduler renewals = new ManualScheduler();
    DatabaseSessionConfig config = driven(Duration.ofSeconds(30), clock, renewals);
    create("alice", "s1", Map.of());
    try (DatabaseSessionService a = open(config);
        DatabaseSessionService b = open(config)) {
      SessionLease held = a.acquireLease(APP, "alice", "s1", Duration.ZERO).blockingGet();
      clock.advance(Duration.ofSeconds(20));
      renewals.runPeriodic(); // now held until 50 s
      clock.advance(Duration.ofSeconds(25)); // past the first expiry and its grace (40 s)
      renewals.runPeriodic(); // now held until 75 s
      clock.advance(Duration.ofSeconds(40)); // 85 s: past 75 s, within its grace
      assertThat(held.isHeld()).isTrue();
      assertThat(a.leaseStats().renewals()).isEqualTo(2);
      assertThatThrownBy(() -> b.acquireLease(APP, "alice", "s1", Duration.ZERO).blockingGet())
          .isInstanceOf(SessionBusyException.class);
      held.close();
      b.acquireLease(APP, "alice", "s1", Duration.ZERO).blockingGet().close();
    } finally {
      renewals.shutdownNow();
    }
  }

  @Test
  void manyHeldLeases_areRenewedTogether_beyondTheirDuration() throws Exception {
    // More leases than one renewal statement names (200), so the batches are split.
    int n = 250;
    MutableClock clock = MutableClock.atFixedStart();
    ManualScheduler renewals = new ManualScheduler();
    DatabaseSessionConfig config = driven(Duration.ofSeconds(30), clock, renewals);
    try (DatabaseSessionService a = open(config);
        DatabaseSessionService b = open(config)) {
      List<SessionLease> held = new java.util.ArrayList<>();
      for (int i = 0; i < n; i++) {
        a.createSession(APP, "many", null, "s" + i).blockingGet();
        held.add(a.acquireLease(APP, "many", "s" + i, Duration.ZERO).blockingGet());
      }
      for (int round = 0; round < 3; round++) {
        clock.advance(Duration.ofSeconds(25));
        renewals.runPeriodic();
      }
      clock.advance(Duration.ofSeconds(35)); // 110 s: three lease durations and more
      assertThat(held).allSatisfy(l -> assertThat(l.isHeld()).isTrue());
      LeaseStats stats = a.leaseStats();
      assertThat(stats.renewals()).isEqualTo(3L * n);
      assertThat(stats.held()).isEqualTo(n);
      for (int i : new int[] {0, 199, 200, n - 1}) {
        int session = i;
        assertThatThrownBy(
                () -> b.acquireLease(APP, "many", "s" + session, Duration.ZERO).blockingGet())
            .isInstanceOf(SessionBusyException.class);
      }
      held.forEach(SessionLease::close);
      b.acquireLease(APP, "many", "s" + (n - 1), Duration.ZERO).blockingGet().close();
    } finally {
      renewals.shutdownNow();
    }
  }

  /**
   * Issue 25: a renewal that comes late (here: never, the renewal thread stalled) does not cost a
   * turn that is running its session. Each append of the holder extends its lease, and a waiter
   * takes an unreleased lease only a grace after it expired; the waiter is served when the holder
   * releases.
   */
  @Test
  void stalledRenewal_doesNotLoseARunningTurnsLease_theWaiterIsServedAfterIt() throws Exception {
    MutableClock clock = MutableClock.atFixedStart();
    ManualScheduler stalled = new ManualScheduler(); // its renewals never run
    DatabaseSessionConfig config = driven(Duration.ofSeconds(30), clock, stalled);
    create("alice", "s1", Map.of());
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (DatabaseSessionService holder = open(config);
        DatabaseSessionService waiting = open(config);
        DatabaseSessionService other = open(config)) {
      SessionLease lease = holder.acquireLease(APP, "alice", "s1", Duration.ZERO).blockingGet();
      Session turn = holder.getSession(APP, "alice", "s1").blockingGet();
      lease.attach(turn);
      holder.appendEvent(turn, event(Map.of("turn", "a1"))).blockingGet();

      java.util.concurrent.CountDownLatch queued = new java.util.concurrent.CountDownLatch(1);
      Future<List<String>> waiter =
          pool.submit(
              () -> {
                try (SessionLease next =
                    waiting
                        .acquireLease(
                            APP, "alice", "s1", Duration.ofMinutes(10), w -> queued.countDown())
                        .blockingGet()) {
                  Session copy = waiting.getSession(APP, "alice", "s1").blockingGet();
                  next.attach(copy);
                  waiting.appendEvent(copy, event(Map.of("turn", "b1"))).blockingGet();
                  List<String> seen = new ArrayList<>();
                  for (Event e : copy.events()) {
                    seen.add(String.valueOf(e.actions().stateDelta().get("turn")));
                  }
                  return seen;
                }
              });
      assertThat(queued.await(30, TimeUnit.SECONDS)).as("the waiter queued").isTrue();

      // 35 s: the lease (30 s, never renewed) has expired, within its grace; the turn writes.
      clock.advance(Duration.ofSeconds(35));
      holder.appendEvent(turn, event(Map.of("turn", "a2"))).blockingGet();
      // 50 s: past the first expiry and its grace (40 s); the write at 35 s extended it to 65 s.
      clock.advance(Duration.ofSeconds(15));
      assertThatThrownBy(() -> other.acquireLease(APP, "alice", "s1", Duration.ZERO).blockingGet())
          .isInstanceOf(SessionBusyException.class);
      holder.appendEvent(turn, event(Map.of("turn", "a3"))).blockingGet();
      assertThat(lease.isHeld()).isTrue();
      assertThat(waiter.isDone()).isFalse();
      lease.close();

      assertThat(waiter.get(30, TimeUnit.SECONDS)).containsExactly("a1", "a2", "a3", "b1");
      assertThat(holder.leaseStats().lostLeases()).isZero();
    } finally {
      pool.shutdownNow();
      stalled.shutdownNow();
    }
  }
}
