package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.state.State;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The session service contract of {@code ARCHITECTURE.md} ("State contract", "Session service
 * contract"), as tests. Every {@link BaseSessionService} implementation's test extends this class
 * and only says how to build a fresh, empty service; a backend is done when it passes unchanged.
 *
 * <p>Shipped in the adk-sessions test-jar ({@code <type>test-jar</type>}, test scope), so that a
 * backend in another project extends it too. A {@link SessionStore} is tested through the service
 * over it:
 *
 * <pre>{@code
 * class MyStoreTest extends SessionServiceContract {
 *   protected BaseSessionService createService() {
 *     return createService(SessionLimits.defaults());
 *   }
 *
 *   protected BaseSessionService createService(SessionLimits limits) {
 *     return new StoreBackedSessionService(new MyStore(), limits);
 *   }
 * }
 * }</pre>
 *
 * <p>What is particular to a backend (surviving a restart, several instances on one store, faults
 * of a database) is tested beside this, as {@code DatabaseSessionServiceContract} does for {@code
 * DatabaseSessionService}. Leases are optional: a service whose {@code acquireLease} returns {@link
 * SessionLease#none()} skips the checks of exclusivity and waiting.
 */
public abstract class SessionServiceContract {

  protected static final String APP = "my_app";

  /** A new, empty service. Called before each test; {@link #closeService} releases it. */
  protected abstract BaseSessionService createService() throws Exception;

  /**
   * A new, empty service applying {@code limits} (as {@code new StoreBackedSessionService(store,
   * limits)}); the test closes it with {@link #closeService}.
   */
  protected abstract BaseSessionService createService(SessionLimits limits) throws Exception;

  /** Releases what {@link #createService()} made; the default closes AutoCloseable services. */
  protected void closeService(BaseSessionService service) throws Exception {
    if (service instanceof AutoCloseable) {
      ((AutoCloseable) service).close();
    }
  }

  /** The service under test: a fresh one for each test. */
  protected BaseSessionService service;

  @BeforeEach
  protected void setUpService() throws Exception {
    service = createService();
  }

  @AfterEach
  protected void tearDownService() throws Exception {
    closeService(service);
  }

  // ---- helpers ----

  protected Session create(String user, String id, Map<String, Object> state) {
    return service.createSession(APP, user, state, id).blockingGet();
  }

  protected Session get(String user, String id) {
    return service.getSession(APP, user, id).blockingGet();
  }

  protected Session get(String user, String id, GetSessionConfig config) {
    return service.getSession(APP, user, id, Optional.of(config)).blockingGet();
  }

  protected static Event event(Map<String, Object> delta) {
    return Event.builder()
        .invocationId("inv")
        .author("system")
        .actions(EventActions.builder().stateDelta(delta).build())
        .build();
  }

  protected static Event textEvent(String text, long timestampMillis) {
    return Event.builder()
        .invocationId("inv")
        .author("user")
        .content(Content.builder().role("user").parts(List.of(Part.fromText(text))).build())
        .timestamp(timestampMillis)
        .build();
  }

  protected Event append(Session session, Map<String, Object> delta) {
    return service.appendEvent(session, event(delta)).blockingGet();
  }

  protected static Map<String, Object> map(Object... kv) {
    Map<String, Object> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  // ---- scopes ----

  @Test
  void appState_isSharedByEveryUserAndSessionOfTheApp_andInvisibleToOtherApps() {
    Session alice = create("alice", "s1", map());
    append(alice, map("app:theme", "dark"));
    create("bob", "s2", map());
    service.createSession("other_app", "alice", null, "s3").blockingGet();

    assertThat(get("alice", "s1").state()).containsEntry("app:theme", "dark");
    assertThat(get("bob", "s2").state()).containsEntry("app:theme", "dark");
    assertThat(service.getSession("other_app", "alice", "s3").blockingGet().state())
        .doesNotContainKey("app:theme");
  }

  @Test
  void userState_isSharedByTheUsersSessions_andInvisibleToOtherUsers() {
    Session s1 = create("alice", "s1", map());
    create("alice", "s2", map());
    create("bob", "s3", map());
    append(s1, map("user:language", "fr"));

    assertThat(get("alice", "s2").state()).containsEntry("user:language", "fr");
    assertThat(get("bob", "s3").state()).doesNotContainKey("user:language");
  }

  @Test
  void unprefixedKeys_arePrivateToTheSession_includingUnknownPrefixes() {
    Session s1 = create("alice", "s1", map());
    create("alice", "s2", map());
    append(s1, map("context", "one", "a:b", 1));

    assertThat(get("alice", "s1").state()).containsEntry("context", "one").containsEntry("a:b", 1);
    assertThat(get("alice", "s2").state()).doesNotContainKeys("context", "a:b");
  }

  @Test
  void createSession_routesInitialStateByPrefix() {
    Session first =
        create("alice", "s1", map("app:theme", "dark", "user:name", "Alice", "context", "one"));
    assertThat(first.state())
        .containsEntry("app:theme", "dark")
        .containsEntry("user:name", "Alice")
        .containsEntry("context", "one");

    Session second = create("alice", "s2", map("context", "two"));

    assertThat(second.state())
        .containsEntry("app:theme", "dark")
        .containsEntry("user:name", "Alice")
        .containsEntry("context", "two");
    assertThat(get("alice", "s1").state()).containsEntry("context", "one");
  }

  @Test
  void createSession_dropsTempKeys() {
    Session s = create("alice", "s1", map("temp:scratch", 1, "kept", 2));
    assertThat(s.state()).doesNotContainKey("temp:scratch").containsEntry("kept", 2);
    assertThat(get("alice", "s1").state()).doesNotContainKey("temp:scratch");
  }

  @Test
  void createSession_withNullIdAndNullState_generatesAnId() {
    Session s = service.createSession(APP, "alice", null, null).blockingGet();
    assertThat(s.id()).isNotBlank();
    assertThat(s.appName()).isEqualTo(APP);
    assertThat(s.userId()).isEqualTo("alice");
    assertThat(s.state()).isEmpty();
    assertThat(get("alice", s.id())).isNotNull();
  }

  @Test
  void userValueWrittenInOneSession_showsInAnotherSessionsNextRead() {
    Session s1 = create("alice", "s1", map());
    Session s2 = create("alice", "s2", map());
    assertThat(s2.state()).doesNotContainKey("user:visits");
    append(s1, map("user:visits", 1));
    assertThat(get("alice", "s2").state()).containsEntry("user:visits", 1);
  }

  // ---- temp ----

  @Test
  void tempKeys_areNeverStored_norKeptOnThePassedCopy() {
    Session s = create("alice", "s1", map());
    Event stored = append(s, map("temp:validation_needed", true, "task_status", "active"));

    // a copy holds stored state only: an invocation keeps its temp: values in its live state
    assertThat(s.state())
        .doesNotContainKey("temp:validation_needed")
        .containsEntry("task_status", "active");
    assertThat(stored.actions().stateDelta()).doesNotContainKey("temp:validation_needed");

    Session reloaded = get("alice", "s1");
    assertThat(reloaded.state())
        .doesNotContainKey("temp:validation_needed")
        .containsEntry("task_status", "active");
    assertThat(reloaded.events()).hasSize(1);
    assertThat(reloaded.events().get(0).actions().stateDelta())
        .doesNotContainKey("temp:validation_needed")
        .containsEntry("task_status", "active");
    List<Event> listed = service.listEvents(APP, "alice", "s1").blockingGet().events();
    assertThat(listed).hasSize(1);
    assertThat(listed.get(0).actions().stateDelta()).doesNotContainKey("temp:validation_needed");
  }

  // ---- removal ----

  @Test
  void nullInDelta_removesTheKeyInItsScope() {
    Session s1 = create("alice", "s1", map("app:a", 1, "user:u", 2, "k", 3));
    Map<String, Object> removals = new HashMap<>();
    removals.put("app:a", null);
    removals.put("user:u", State.REMOVED);
    removals.put("k", null);
    append(s1, removals);

    assertThat(s1.state()).doesNotContainKeys("app:a", "user:u", "k");
    Session reloaded = get("alice", "s1");
    assertThat(reloaded.state()).doesNotContainKeys("app:a", "user:u", "k");
    assertThat(reloaded.state().get("k")).isNull();
    assertThat(reloaded.events().get(0).actions().stateDelta())
        .containsEntry("k", null)
        .containsEntry("user:u", null);
    assertThat(create("alice", "s2", map()).state()).doesNotContainKeys("app:a", "user:u");
  }

  // ---- values ----

  @Test
  void values_readBackAsTheirJsonRoundTrip() {
    Session s = create("alice", "s1", map());
    Map<String, Object> nested = new HashMap<>();
    nested.put("theme", "dark");
    nested.put("sizes", List.of(1, 2, 3));
    append(s, map("n", 42L, "d", 1.5, "b", true, "profile", nested, "list", List.of("a", "b")));

    Map<String, Object> state = get("alice", "s1").state();
    assertThat(state.get("n")).isEqualTo(42);
    assertThat(state.get("d")).isEqualTo(1.5);
    assertThat(state.get("b")).isEqualTo(true);
    assertThat(state.get("profile")).isEqualTo(Map.of("theme", "dark", "sizes", List.of(1, 2, 3)));
    assertThat(state.get("list")).isEqualTo(List.of("a", "b"));
  }

  @Test
  void unserializableValue_isRefusedWithTheKey_andNothingIsStored() {
    Session s = create("alice", "s1", map());
    Map<String, Object> cyclic = new HashMap<>();
    cyclic.put("self", cyclic);

    assertThatThrownBy(
            () -> service.appendEvent(s, event(map("ok", 1, "bad", cyclic))).blockingGet())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bad");
    assertThatThrownBy(() -> append(s, map("thing", new Object())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("thing");

    Session reloaded = get("alice", "s1");
    assertThat(reloaded.state()).doesNotContainKey("ok");
    assertThat(reloaded.events()).isEmpty();
    assertThat(reloaded.revision()).isZero();
    append(s, map("ok", 1));
    assertThat(get("alice", "s1").state()).containsEntry("ok", 1);
  }

  @Test
  void invalidKeys_areRefused() {
    assertThatThrownBy(() -> create("alice", "s1", map("", 1)))
        .isInstanceOf(IllegalArgumentException.class);
    Session s = create("alice", "s2", map());
    assertThatThrownBy(() -> append(s, map("user:", 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("user:");
    assertThat(get("alice", "s2").events()).isEmpty();
  }

  @Test
  void blankIds_areRefusedNamingTheId_andNothingIsStored() {
    create("alice", "s1", map("k", 1));
    for (String blank : List.of(" ", "\t", " \n ")) {
      assertThatThrownBy(() -> service.createSession(APP, "alice", null, blank).blockingGet())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("sessionId");
      assertThatThrownBy(() -> service.createSession(APP, blank, null, "s2").blockingGet())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("userId");
      assertThatThrownBy(() -> service.createSession(blank, "alice", null, "s2").blockingGet())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("appName");
      assertThatThrownBy(() -> service.getSession(APP, "alice", blank).blockingGet())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("sessionId");
      assertThatThrownBy(() -> service.deleteSession(APP, blank, "s1").blockingAwait())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("userId");
      assertThatThrownBy(() -> service.listSessions(blank, "alice").blockingGet())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("appName");
      assertThatThrownBy(() -> service.listEvents(APP, "alice", blank).blockingGet())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("sessionId");
    }
    assertThat(service.listSessions(APP, "alice").blockingGet().sessions())
        .extracting(Session::id)
        .containsExactly("s1");
  }

  @Test
  void eventIdAppendedTwice_isRefusedNamingItAndTheSession_andNothingIsStored() {
    Session s = create("alice", "s1", map());
    Event first = event(map("k", 1));
    service.appendEvent(s, first).blockingGet();
    Event again = event(map("k", 2, "user:u", 1)).toBuilder().id(first.id()).build();

    assertThatThrownBy(() -> service.appendEvent(s, first).blockingGet())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(first.id())
        .hasMessageContaining("s1")
        .hasMessageContaining("alice")
        .hasMessageContaining(APP);
    assertThatThrownBy(() -> service.appendEvent(s, again).blockingGet())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(first.id());
    // The id is checked before any condition: a reused id is refused as such, whatever it expects.
    Event expecting =
        conditional(EventActions.builder().putState("k", 4).expectState("k", 99).build())
            .toBuilder()
            .id(first.id())
            .build();
    assertThatThrownBy(() -> service.appendEvent(s, expecting).blockingGet())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(first.id());

    Session reloaded = get("alice", "s1");
    assertThat(reloaded.events()).extracting(Event::id).containsExactly(first.id());
    assertThat(reloaded.state()).containsEntry("k", 1).doesNotContainKey("user:u");
    assertThat(reloaded.revision()).isEqualTo(1);
    assertThat(s.revision()).isEqualTo(1); // the copy is still current
    append(s, map("k", 3));
    // Another session may hold the same id.
    Session other = create("alice", "s2", map());
    service.appendEvent(other, first).blockingGet();
    assertThat(get("alice", "s2").events()).extracting(Event::id).containsExactly(first.id());
  }

  // ---- event selection ----

  private Session sessionWithEventsAtSeconds1To5() {
    Session s = create("alice", "s1", map());
    for (int i = 1; i <= 5; i++) {
      service.appendEvent(s, textEvent("e" + i, i * 1000L)).blockingGet();
    }
    return s;
  }

  private static List<Long> seconds(Session s) {
    List<Long> out = new ArrayList<>();
    for (Event e : s.events()) {
      out.add(e.timestamp() / 1000);
    }
    return out;
  }

  @Test
  void getSession_withoutConfig_returnsAllEvents() {
    sessionWithEventsAtSeconds1To5();
    assertThat(seconds(get("alice", "s1"))).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(seconds(service.getSession(APP, "alice", "s1", Optional.empty()).blockingGet()))
        .containsExactly(1L, 2L, 3L, 4L, 5L);
  }

  @Test
  void getSession_numRecentEvents_keepsTheLastN() {
    sessionWithEventsAtSeconds1To5();
    assertThat(seconds(get("alice", "s1", GetSessionConfig.builder().numRecentEvents(3).build())))
        .containsExactly(3L, 4L, 5L);
  }

  @Test
  void getSession_numRecentEventsZero_keepsNone() {
    sessionWithEventsAtSeconds1To5();
    Session s = get("alice", "s1", GetSessionConfig.builder().numRecentEvents(0).build());
    assertThat(s.events()).isEmpty();
  }

  @Test
  void getSession_afterTimestamp_isInclusive() {
    sessionWithEventsAtSeconds1To5();
    GetSessionConfig after4 =
        GetSessionConfig.builder().afterTimestamp(Instant.ofEpochSecond(4)).build();
    assertThat(seconds(get("alice", "s1", after4))).containsExactly(4L, 5L);
    GetSessionConfig after50 =
        GetSessionConfig.builder().afterTimestamp(Instant.ofEpochSecond(50)).build();
    assertThat(get("alice", "s1", after50).events()).isEmpty();
  }

  @Test
  void getSession_afterTimestampThenNumRecentEvents() {
    sessionWithEventsAtSeconds1To5();
    GetSessionConfig config =
        GetSessionConfig.builder()
            .afterTimestamp(Instant.ofEpochSecond(4))
            .numRecentEvents(3)
            .build();
    assertThat(seconds(get("alice", "s1", config))).containsExactly(4L, 5L);
  }

  @Test
  void lastUpdateTime_isTheLastEventsTimestamp() {
    Session s = sessionWithEventsAtSeconds1To5();
    assertThat(s.lastUpdateTime()).isEqualTo(Instant.ofEpochSecond(5));
    assertThat(get("alice", "s1").lastUpdateTime()).isEqualTo(Instant.ofEpochSecond(5));
  }

  @Test
  void events_keepTheirContentAndOrder() {
    Session s = create("alice", "s1", map());
    Event e = textEvent("hello", 1234L);
    service.appendEvent(s, e).blockingGet();
    Event stored = get("alice", "s1").events().get(0);
    assertThat(stored.id()).isEqualTo(e.id());
    assertThat(stored.author()).isEqualTo("user");
    assertThat(stored.timestamp()).isEqualTo(1234L);
    assertThat(stored.content().orElseThrow().parts().orElseThrow().get(0).text())
        .contains("hello");
  }

  @Test
  void events_keepAdksResponseAndActionFields_whole() {
    Session s = create("alice", "s1", map());
    Event e =
        textEvent("grounded", 1234L).toBuilder()
            .author("agent")
            .finishReason(
                new com.google.genai.types.FinishReason(
                    com.google.genai.types.FinishReason.Known.STOP))
            .groundingMetadata(
                com.google.genai.types.GroundingMetadata.builder()
                    .webSearchQueries(List.of("adk"))
                    .build())
            .avgLogprobs(-0.5)
            .interrupted(true)
            .modelVersion("m-1")
            .customMetadata(
                List.of(
                    com.google.genai.types.CustomMetadata.builder()
                        .key("tier")
                        .stringValue("gold")
                        .build()))
            .inputTranscription(
                com.google.genai.types.Transcription.builder().text("hi").finished(true).build())
            .outputTranscription(com.google.genai.types.Transcription.builder().text("yo").build())
            .actions(
                EventActions.builder()
                    .endInvocation(true)
                    .endOfAgent(true)
                    .requestedAuthConfigs(Map.of("call-1", Map.of("scheme", "oauth2")))
                    .deletedArtifactIds(java.util.Set.of("old.txt"))
                    .agentState(Map.of("round", 2, "pending", List.of("writer", "critic")))
                    .build())
            .build();
    service.appendEvent(s, e).blockingGet();

    Event stored = get("alice", "s1").events().get(0);

    assertThat(stored).isEqualTo(e);
    assertThat(stored.groundingMetadata().flatMap(g -> g.webSearchQueries()))
        .contains(List.of("adk"));
    assertThat(stored.actions().requestedAuthConfigs())
        .containsEntry("call-1", Map.of("scheme", "oauth2"));
    assertThat(stored.actions().agentState())
        .contains(Map.of("round", 2, "pending", List.of("writer", "critic")));
  }

  @Test
  void partialEvent_isReturnedUntouched_andNotStored() {
    Session s = create("alice", "s1", map());
    Event partial =
        Event.builder()
            .author("agent")
            .partial(true)
            .actions(EventActions.builder().stateDelta(map("k", 1)).build())
            .build();
    Event returned = service.appendEvent(s, partial).blockingGet();
    assertThat(returned).isSameAs(partial);
    assertThat(s.events()).isEmpty();
    assertThat(s.state()).doesNotContainKey("k");
    assertThat(get("alice", "s1").events()).isEmpty();
    assertThat(get("alice", "s1").state()).doesNotContainKey("k");
  }

  // ---- staleness and concurrency ----

  @Test
  void staleCopy_throwsStaleSessionException_andStoresNothing() {
    create("alice", "s1", map());
    Session a = get("alice", "s1");
    Session b = get("alice", "s1");
    append(a, map("winner", "a"));

    assertThatThrownBy(() -> append(b, map("winner", "b", "user:x", 1)))
        .isInstanceOf(StaleSessionException.class)
        .hasMessageContaining("s1");

    Session reloaded = get("alice", "s1");
    assertThat(reloaded.state()).containsEntry("winner", "a").doesNotContainKey("user:x");
    assertThat(reloaded.events()).hasSize(1);
    // The reloaded copy is current again.
    append(reloaded, map("winner", "c"));
    assertThat(get("alice", "s1").state()).containsEntry("winner", "c");
  }

  @Test
  void twoCopiesAppendingConcurrently_exactlyOneWinsEachRound() throws Exception {
    create("alice", "s1", map());
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 8; round++) {
        Session a = get("alice", "s1");
        Session b = get("alice", "s1");
        CyclicBarrier barrier = new CyclicBarrier(2);
        int r = round;
        Future<Boolean> fa = pool.submit(() -> tryAppend(barrier, a, map("round" + r, "a")));
        Future<Boolean> fb = pool.submit(() -> tryAppend(barrier, b, map("round" + r, "b")));
        boolean aWon = fa.get(30, TimeUnit.SECONDS);
        boolean bWon = fb.get(30, TimeUnit.SECONDS);
        assertThat(aWon ^ bWon).as("exactly one winner in round %d", round).isTrue();
        Session reloaded = get("alice", "s1");
        assertThat(reloaded.events()).hasSize(round + 1);
        assertThat(reloaded.state()).containsEntry("round" + r, aWon ? "a" : "b");
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private boolean tryAppend(CyclicBarrier barrier, Session s, Map<String, Object> delta)
      throws Exception {
    barrier.await(30, TimeUnit.SECONDS);
    try {
      append(s, delta);
      return true;
    } catch (StaleSessionException e) {
      return false;
    }
  }

  @Test
  void concurrentAppendsOnSessionsOfOneUser_loseNoEventAndNoKey() throws Exception {
    int threads = 8;
    int appends = 200;
    List<Session> sessions = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      sessions.add(create("alice", "s" + t, map()));
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    AtomicInteger failures = new AtomicInteger();
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Session s = sessions.get(t);
      int thread = t;
      futures.add(
          pool.submit(
              () -> {
                start.await();
                for (int i = 0; i < appends; i++) {
                  try {
                    append(s, map("user:t" + thread + "_" + i, i, "k" + i, thread, "last", i));
                  } catch (RuntimeException e) {
                    failures.incrementAndGet();
                    throw e;
                  }
                }
                return null;
              }));
    }
    start.countDown();
    for (Future<?> f : futures) {
      f.get(5, TimeUnit.MINUTES);
    }
    pool.shutdown();
    assertThat(failures).hasValue(0);

    for (int t = 0; t < threads; t++) {
      Session s = get("alice", "s" + t);
      assertThat(s.events()).hasSize(appends);
      assertThat(s.state()).containsEntry("last", appends - 1);
      for (int i = 0; i < appends; i++) {
        assertThat(s.state()).containsEntry("k" + i, t);
      }
      for (int other = 0; other < threads; other++) {
        for (int i = 0; i < appends; i++) {
          assertThat(s.state()).containsEntry("user:t" + other + "_" + i, i);
        }
      }
    }
  }

  @Test
  void appendsThroughOneCopy_fromSeveralThreads_areAllApplied() throws Exception {
    Session s = create("alice", "s1", map());
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      int thread = t;
      futures.add(
          pool.submit(
              () -> {
                for (int i = 0; i < 25; i++) {
                  append(s, map("branch" + thread + "_" + i, i));
                }
                return null;
              }));
    }
    for (Future<?> f : futures) {
      f.get(2, TimeUnit.MINUTES);
    }
    pool.shutdown();
    Session reloaded = get("alice", "s1");
    assertThat(reloaded.events()).hasSize(100);
    assertThat(reloaded.state()).hasSize(100);
    assertThat(s.revision()).isEqualTo(reloaded.revision());
  }

  // ---- copies ----

  @Test
  void returnedSessions_areCopies() {
    Map<String, Object> profile = new HashMap<>();
    profile.put("name", "Alice");
    Session created = create("alice", "s1", map("profile", profile, "k", "v"));
    profile.put("name", "changed after create");
    assertThatThrownBy(() -> created.state().put("k", "mutated"))
        .isInstanceOf(UnsupportedOperationException.class);

    Session loaded = get("alice", "s1");
    append(loaded, map("e", 1));
    Session copy = get("alice", "s1");
    assertThatThrownBy(() -> copy.state().put("k", "mutated again"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> copy.state().remove("e"))
        .isInstanceOf(UnsupportedOperationException.class);
    @SuppressWarnings("unchecked")
    Map<String, Object> loadedProfile = (Map<String, Object>) copy.state().get("profile");
    loadedProfile.put("name", "mutated nested");
    assertThatThrownBy(() -> copy.events().clear())
        .isInstanceOf(UnsupportedOperationException.class);
    Map<String, Object> storedDelta = copy.events().get(0).actions().stateDelta();
    assertThatThrownBy(() -> storedDelta.put("e", 2))
        .isInstanceOf(UnsupportedOperationException.class);

    Session fresh = get("alice", "s1");
    assertThat(fresh.state())
        .containsEntry("k", "v")
        .containsEntry("e", 1)
        .containsEntry("profile", Map.of("name", "Alice"));
    assertThat(fresh.events()).hasSize(1);
  }

  @Test
  void mutatingAnAppendedValueAfterwards_changesNothingStored() {
    Session s = create("alice", "s1", map());
    List<String> items = new ArrayList<>(List.of("book"));
    append(s, map("cart", items));
    items.add("pen");
    assertThat(get("alice", "s1").state()).containsEntry("cart", List.of("book"));
  }

  // ---- ids and lifecycle ----

  @Test
  void unknownSession_getIsEmpty_appendThrowsNotFound_listEventsThrowsNotFound() {
    assertThat(service.getSession(APP, "alice", "nope").blockingGet()).isNull();
    Session ghost = Session.builder("nope").appName(APP).userId("alice").build();
    assertThatThrownBy(() -> append(ghost, map("k", 1)))
        .isInstanceOf(SessionNotFoundException.class)
        .hasMessageContaining("nope")
        .hasMessageContaining("alice")
        .hasMessageContaining(APP);
    assertThatThrownBy(() -> service.listEvents(APP, "alice", "nope").blockingGet())
        .isInstanceOf(SessionNotFoundException.class);
  }

  @Test
  void duplicateId_throwsAlreadyExists_andKeepsTheFirst() {
    create("alice", "s1", map("k", "first"));
    assertThatThrownBy(() -> create("alice", "s1", map("k", "second", "user:x", 1)))
        .isInstanceOf(SessionAlreadyExistsException.class)
        .hasMessageContaining("s1");
    assertThat(get("alice", "s1").state()).containsEntry("k", "first");
  }

  @Test
  void sameIdUnderTwoUsers_isTwoSessions() {
    create("alice", "s1", map("owner", "alice"));
    create("bob", "s1", map("owner", "bob"));
    assertThat(get("alice", "s1").state()).containsEntry("owner", "alice");
    assertThat(get("bob", "s1").state()).containsEntry("owner", "bob");
  }

  @Test
  void deleteSession_removesSessionAndEvents_butKeepsAppAndUserState() {
    Session s = create("alice", "s1", map());
    append(s, map("app:a", 1, "user:u", 2, "k", 3));
    service.deleteSession(APP, "alice", "s1").blockingAwait();

    assertThat(service.getSession(APP, "alice", "s1").blockingGet()).isNull();
    assertThatThrownBy(() -> service.listEvents(APP, "alice", "s1").blockingGet())
        .isInstanceOf(SessionNotFoundException.class);
    Session again = create("alice", "s1", map());
    assertThat(again.state()).containsEntry("app:a", 1).containsEntry("user:u", 2);
    assertThat(again.state()).doesNotContainKey("k");
    assertThat(again.events()).isEmpty();
    service.deleteSession(APP, "alice", "never-existed").blockingAwait();
  }

  @Test
  void appendThroughACopyOfADeletedSession_isRefused_andAfterRecreationReachesTheNewSession() {
    Session used = create("alice", "s1", map());
    append(used, map("k", 1)); // revision 1
    Session fresh = get("alice", "s1");
    Session untouched = create("alice", "s2", map()); // revision 0
    service.deleteSession(APP, "alice", "s1").blockingAwait();
    service.deleteSession(APP, "alice", "s2").blockingAwait();

    assertThatThrownBy(() -> append(fresh, map("k", 2)))
        .isInstanceOf(SessionNotFoundException.class);
    create("alice", "s1", map());
    create("alice", "s2", map());
    // The old copy is behind the new session of the same id: refused, nothing stored.
    assertThatThrownBy(() -> append(used, map("k", 3))).isInstanceOf(StaleSessionException.class);
    assertThat(get("alice", "s1").events()).isEmpty();
    // A copy at revision 0 matches the new session's revision: the append is stored where
    // reads find it (not in the deleted session's records).
    append(untouched, map("k", 4));
    assertThat(get("alice", "s2").state()).containsEntry("k", 4);
    assertThat(get("alice", "s2").events()).hasSize(1);
  }

  @Test
  void listSessions_returnsTheUsersSessionsWithStateAndNoEvents() {
    Session s1 = create("alice", "s1", map("k", 1));
    append(s1, map("user:u", "x"));
    create("alice", "s2", map());
    create("bob", "s3", map());

    List<Session> sessions = service.listSessions(APP, "alice").blockingGet().sessions();
    assertThat(sessions).extracting(Session::id).containsExactly("s1", "s2");
    assertThat(sessions.get(0).state()).containsEntry("k", 1).containsEntry("user:u", "x");
    assertThat(sessions.get(1).state()).containsEntry("user:u", "x");
    assertThat(sessions).allSatisfy(s -> assertThat(s.events()).isEmpty());
    assertThat(service.listSessions(APP, "nobody").blockingGet().sessions()).isEmpty();
  }

  @Test
  void listEvents_returnsStoredEventsInOrder() {
    Session s = create("alice", "s1", map());
    for (int i = 1; i <= 3; i++) {
      service.appendEvent(s, textEvent("e" + i, i * 1000L)).blockingGet();
    }
    List<Event> events = service.listEvents(APP, "alice", "s1").blockingGet().events();
    assertThat(events).extracting(Event::timestamp).containsExactly(1000L, 2000L, 3000L);
  }

  @Test
  void appendEvent_updatesThePassedSessionCopy() {
    Session s = create("alice", "s1", map());
    Event e =
        Event.builder()
            .author("system")
            .timestamp(7000L)
            .actions(EventActions.builder().stateDelta(map("k", 1)).build())
            .build();
    service.appendEvent(s, e).blockingGet();
    assertThat(s.state()).containsEntry("k", 1);
    assertThat(s.events()).extracting(Event::id).containsExactly(e.id());
    assertThat(s.lastUpdateTime()).isEqualTo(Instant.ofEpochMilli(7000L));
    assertThat(s.revision()).isEqualTo(get("alice", "s1").revision());
  }

  @Test
  void sessionState_isReadOnly_forCallers_andFollowsAppendsThroughTheCopy() {
    Session s = create("alice", "s1", map("k", 1, "user:u", "x"));
    Map<String, Object> state = s.state();
    List<Runnable> writes =
        List.of(
            () -> state.put("k", 2),
            () -> state.remove("k"),
            () -> state.clear(),
            () -> state.putAll(map("n", 1)),
            () -> state.putIfAbsent("n", 1),
            () -> state.replace("k", 3),
            () -> state.compute("k", (k, v) -> 4),
            () -> state.computeIfAbsent("n", k -> 5),
            () -> state.merge("k", 6, (a, b) -> b),
            () -> state.replaceAll((k, v) -> v),
            () -> state.keySet().remove("k"),
            () -> state.keySet().removeIf(k -> true),
            () -> state.values().clear(),
            () -> state.entrySet().iterator().next().setValue(7),
            () -> {
              var it = state.entrySet().iterator();
              it.next();
              it.remove();
            });
    for (Runnable write : writes) {
      assertThatThrownBy(write::run).isInstanceOf(UnsupportedOperationException.class);
    }
    assertThatThrownBy(() -> state.put("k", 2))
        .hasMessageContaining("session 's1'")
        .hasMessageContaining("user 'alice'")
        .hasMessageContaining("app '" + APP + "'")
        .hasMessageContaining("stateDelta");
    assertThat(state).isEqualTo(map("k", 1, "user:u", "x"));
    assertThat(get("alice", "s1").state()).isEqualTo(map("k", 1, "user:u", "x"));

    append(s, map("k", 2, "temp:t", true));
    assertThat(state).as("the same view, after an append through this copy").containsEntry("k", 2);
    assertThat(get("alice", "s1").state()).containsEntry("k", 2).doesNotContainKey("temp:t");
  }

  @Test
  void operationsAreLazy_untilSubscribed() {
    service.createSession(APP, "alice", null, "lazy");
    assertThat(service.getSession(APP, "alice", "lazy").blockingGet()).isNull();
  }

  // ---- read-modify-write conflicts, atomic increments, leases ----

  private static Event conditional(EventActions actions) {
    return Event.builder().invocationId("inv").author("tool").actions(actions).build();
  }

  @Test
  void readModifyWrite_ofAUserKeyChangedByAnotherSession_conflictsNamingTheKey_andStoresNothing() {
    Session s1 = create("alice", "s1", Map.of("user:count", 5));
    Session s2 = create("alice", "s2", Map.of());
    // s2 counts 5 -> 6 first; s1 computed 6 from the 5 it read too.
    append(s2, Map.of("user:count", 6));
    Event late =
        conditional(
            EventActions.builder().putState("user:count", 6).expectState("user:count", 5).build());

    assertThatThrownBy(() -> service.appendEvent(s1, late).blockingGet())
        .isInstanceOf(StateConflictException.class)
        .hasMessageContaining("'user:count'")
        .hasMessageContaining("'s1'")
        .hasMessageContaining("'alice'")
        .hasMessageContaining(APP)
        .satisfies(
            e -> {
              StateConflictException c = (StateConflictException) e;
              assertThat(c.key()).isEqualTo("user:count");
              assertThat(c.expected()).isEqualTo(5);
              assertThat(c.actual()).isEqualTo(6);
            });
    assertThat(get("alice", "s1").events()).isEmpty();
    assertThat(s1.revision()).isZero();
    assertThat(get("alice", "s2").state()).containsEntry("user:count", 6);
    // The refused copy is still usable: a fresh read-modify-write goes through.
    Event retried =
        conditional(
            EventActions.builder().putState("user:count", 7).expectState("user:count", 6).build());
    service.appendEvent(s1, retried).blockingGet();
    assertThat(get("alice", "s2").state()).containsEntry("user:count", 7);
  }

  @Test
  void readModifyWrite_ofAKeyReadAsAbsent_conflictsWhenAnotherCreatedIt() {
    Session s1 = create("alice", "s1", Map.of());
    Session s2 = create("alice", "s2", Map.of());
    append(s2, Map.of("app:seen", List.of("s2")));
    Event first =
        conditional(
            EventActions.builder()
                .putState("app:seen", List.of("s1"))
                .expectState("app:seen", null)
                .build());
    assertThatThrownBy(() -> service.appendEvent(s1, first).blockingGet())
        .isInstanceOf(StateConflictException.class)
        .hasMessageContaining("'app:seen'");
    assertThat(get("alice", "s1").state()).containsEntry("app:seen", List.of("s2"));
  }

  @Test
  void satisfiedExpectations_areApplied_andNeverStoredWithTheEvent() {
    Session s = create("alice", "s1", Map.of("user:count", 1.0, "profile", Map.of("a", 1)));
    Event e =
        conditional(
            EventActions.builder()
                .putState("user:count", 2)
                .expectState("user:count", 1) // 1 and 1.0 are the same JSON number
                .expectState("profile", Map.of("a", 1))
                .expectState("user:missing", null)
                .build());
    Event stored = service.appendEvent(s, e).blockingGet();
    assertThat(stored.actions().expectedState()).isEmpty();
    assertThat(service.listEvents(APP, "alice", "s1").blockingGet().events().get(0).actions())
        .satisfies(a -> assertThat(a.expectedState()).isEmpty());
    assertThat(get("alice", "s1").state()).containsEntry("user:count", 2);
  }

  @Test
  void increments_fromManySessionsAndThreads_allCount_andEachEventRecordsTheValueItProduced()
      throws Exception {
    int threads = 4;
    int perThread = 25;
    List<Session> sessions = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      sessions.add(create("alice", "s" + t, Map.of()));
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CyclicBarrier start = new CyclicBarrier(threads);
    List<Future<List<Object>>> results = new ArrayList<>();
    for (Session session : sessions) {
      results.add(
          pool.submit(
              () -> {
                start.await();
                List<Object> produced = new ArrayList<>();
                for (int i = 0; i < perThread; i++) {
                  Event stored =
                      service
                          .appendEvent(
                              session,
                              conditional(
                                  EventActions.builder()
                                      .incrementState("user:count", 1)
                                      .incrementState("app:total", 2)
                                      .build()))
                          .blockingGet();
                  produced.add(stored.actions().stateDelta().get("user:count"));
                }
                return produced;
              }));
    }
    List<Object> all = new ArrayList<>();
    for (Future<List<Object>> f : results) {
      all.addAll(f.get(60, TimeUnit.SECONDS));
    }
    pool.shutdown();
    int total = threads * perThread;
    assertThat(get("alice", "s0").state())
        .containsEntry("user:count", total)
        .containsEntry("app:total", 2 * total);
    // Every increment saw a different stored value: 1..total, each exactly once.
    assertThat(all).hasSize(total);
    assertThat(all.stream().map(v -> ((Number) v).intValue()).sorted().toList())
        .isEqualTo(java.util.stream.IntStream.rangeClosed(1, total).boxed().toList());
    // The stored events record the resolved values too, and each copy sees its last one.
    for (Session session : sessions) {
      List<Event> events = service.listEvents(APP, "alice", session.id()).blockingGet().events();
      Object last = events.get(events.size() - 1).actions().stateDelta().get("user:count");
      assertThat(session.state().get("user:count")).isEqualTo(last);
    }
  }

  @Test
  void increment_ofANonInteger_isRefusedNamingTheKey_andStoresNothing() {
    Session s = create("alice", "s1", Map.of("user:name", "Ann", "user:ratio", 0.5));
    for (String key : List.of("user:name", "user:ratio")) {
      Event e =
          conditional(
              EventActions.builder().incrementState(key, 1).putState("user:other", 1).build());
      assertThatThrownBy(() -> service.appendEvent(s, e).blockingGet())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'" + key + "'");
    }
    assertThat(get("alice", "s1").events()).isEmpty();
    assertThat(get("alice", "s1").state()).doesNotContainKey("user:other");
  }

  @Test
  void increment_ofATempKey_isNeverStored() {
    Session s = create("alice", "s1", Map.of());
    Event stored =
        service
            .appendEvent(s, conditional(EventActions.builder().incrementState("temp:n", 3).build()))
            .blockingGet();
    assertThat(stored.actions().stateDelta()).doesNotContainKey("temp:n");
    assertThat(get("alice", "s1").state()).doesNotContainKey("temp:n");
  }

  @Test
  void lease_isExclusive_fencesOtherCopies_andPassesOnWhenReleased() throws Exception {
    create("alice", "s1", Map.of());
    SessionLease lease =
        service.acquireLease(APP, "alice", "s1", java.time.Duration.ZERO).blockingGet();
    Session mine = get("alice", "s1");
    lease.attach(mine);
    Session other = get("alice", "s1");
    boolean leasing = !(lease.owner().equals("none"));
    if (leasing) {
      assertThatThrownBy(
              () ->
                  service
                      .acquireLease(APP, "alice", "s1", java.time.Duration.ofMillis(200))
                      .blockingGet())
          .isInstanceOf(SessionBusyException.class)
          .hasMessageContaining("'s1'");
      assertThatThrownBy(() -> append(other, Map.of("k", 1)))
          .isInstanceOf(SessionBusyException.class)
          .hasMessageContaining("'s1'");
      assertThat(get("alice", "s1").events()).isEmpty();
    }
    append(mine, Map.of("k", 2));
    assertThat(lease.isHeld()).isTrue();
    lease.close();
    lease.close(); // idempotent
    SessionLease next =
        service.acquireLease(APP, "alice", "s1", java.time.Duration.ofSeconds(5)).blockingGet();
    next.close();
    // With no lease held, any up-to-date copy may append.
    append(get("alice", "s1"), Map.of("k", 3));
    assertThat(get("alice", "s1").state()).containsEntry("k", 3);
  }

  /**
   * Waiters for a held session are told they wait, and served in the order they arrived once the
   * holder releases (issue 25): each one here arrives after the previous one said it waits. A store
   * with leases that does not report waits (the SPI's default) only has to serve a waiter.
   */
  @Test
  void lease_waitsForTheHolderToRelease_andServesWaitersInArrivalOrder() throws Exception {
    create("alice", "s1", Map.of());
    SessionLease first =
        service.acquireLease(APP, "alice", "s1", java.time.Duration.ZERO).blockingGet();
    if (first.owner().equals("none")) {
      first.close();
      return; // a service without leases: nothing to wait for
    }
    // A service that reports waits (the in-memory and database ones) serves waiters in order; a
    // store that does not (a custom one) is only asked to serve a waiter once the holder releases.
    java.util.concurrent.atomic.AtomicBoolean reports =
        new java.util.concurrent.atomic.AtomicBoolean();
    assertThatThrownBy(
            () ->
                service
                    .acquireLease(
                        APP, "alice", "s1", java.time.Duration.ZERO, w -> reports.set(true))
                    .blockingGet())
        .isInstanceOf(SessionBusyException.class);
    int waiters = reports.get() ? 4 : 1;
    ExecutorService pool = Executors.newFixedThreadPool(waiters);
    List<Future<String>> served = new ArrayList<>();
    try {
      for (int i = 0; i < waiters; i++) {
        String label = "w" + i;
        CountDownLatch waiting = new CountDownLatch(1);
        served.add(
            pool.submit(
                () -> {
                  try (SessionLease lease =
                      service
                          .acquireLease(
                              APP,
                              "alice",
                              "s1",
                              java.time.Duration.ofSeconds(30),
                              w -> waiting.countDown())
                          .blockingGet()) {
                    assertThat(lease.owner()).isNotEqualTo(first.owner());
                    Session copy = service.getSession(APP, "alice", "s1").blockingGet();
                    lease.attach(copy);
                    service.appendEvent(copy, event(Map.of("turn", label))).blockingGet();
                    return label;
                  }
                }));
        if (reports.get()) {
          assertThat(waiting.await(30, TimeUnit.SECONDS)).as("%s waits", label).isTrue();
        }
      }
      assertThat(served).noneMatch(Future::isDone);
      first.close();
      for (Future<String> f : served) {
        f.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    List<Object> order = new ArrayList<>();
    for (Event e : get("alice", "s1").events()) {
      order.add(e.actions().stateDelta().get("turn"));
    }
    assertThat(order)
        .containsExactlyElementsOf(reports.get() ? List.of("w0", "w1", "w2", "w3") : List.of("w0"));
  }

  @Test
  void lease_ofAnUnknownSession_throwsNotFound() {
    assertThatThrownBy(
            () ->
                service
                    .acquireLease(APP, "alice", "nope", java.time.Duration.ofMillis(10))
                    .blockingGet())
        .isInstanceOf(SessionNotFoundException.class);
  }

  // ---- paging and incremental reads (adk4j, issue 11) ----

  /**
   * 25 sessions s00..s24 of alice, session i last updated at second 1000 + i % 7, so that sessions
   * share update times; each has its own key and alice a user key.
   */
  private List<String> twentyFiveSessionsInPageOrder() {
    List<String[]> byTime = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      String id = String.format("s%02d", i);
      Session s = create("alice", id, map("own", i));
      long millis = (1000 + i % 7) * 1000L;
      service.appendEvent(s, textEvent("hi " + i, millis)).blockingGet();
      byTime.add(new String[] {id, Long.toString(millis)});
    }
    append(get("alice", "s00"), map("user:u", "shared"));
    // s00's last update is now that append: the newest of all.
    byTime.get(0)[1] = Long.toString(get("alice", "s00").lastUpdateTime().toEpochMilli());
    create("bob", "s99", map());
    byTime.sort(
        (a, b) -> {
          int t = Long.compare(Long.parseLong(b[1]), Long.parseLong(a[1]));
          return t != 0 ? t : a[0].compareTo(b[0]);
        });
    List<String> ids = new ArrayList<>();
    for (String[] e : byTime) {
      ids.add(e[0]);
    }
    return ids;
  }

  @Test
  void listSessionsPaged_handsOutEverySessionOnce_mostRecentlyUpdatedFirst_tiesById() {
    List<String> expected = twentyFiveSessionsInPageOrder();
    assertThat(expected.get(0)).isEqualTo("s00");
    assertThat(expected.subList(1, 5)).containsExactly("s06", "s13", "s20", "s05");

    List<ListSessionsResponse> pages = new ArrayList<>();
    ListSessionsRequest request = ListSessionsRequest.builder().pageSize(10).build();
    while (true) {
      ListSessionsResponse page = service.listSessions(APP, "alice", request).blockingGet();
      pages.add(page);
      if (page.nextPageToken().isEmpty()) {
        break;
      }
      assertThat(pages).as("pages so far").hasSizeLessThan(10);
      request = request.toBuilder().pageToken(page.nextPageToken().get()).build();
    }

    assertThat(pages).hasSize(3);
    assertThat(pages).extracting(p -> p.sessions().size()).containsExactly(10, 10, 5);
    assertThat(pages.get(0).nextPageToken()).isPresent();
    assertThat(pages.get(1).nextPageToken()).isPresent();
    assertThat(pages.get(2).nextPageToken()).isEmpty();
    List<Session> all = new ArrayList<>();
    pages.forEach(p -> all.addAll(p.sessions()));
    assertThat(all).extracting(Session::id).containsExactlyElementsOf(expected);
    for (int i = 1; i < all.size(); i++) {
      assertThat(all.get(i).lastUpdateTime()).isBeforeOrEqualTo(all.get(i - 1).lastUpdateTime());
    }
    // Merged state, no events, as listSessions(app, user).
    for (Session s : all) {
      assertThat(s.events()).isEmpty();
      assertThat(s.state())
          .containsEntry("own", Integer.parseInt(s.id().substring(1)))
          .containsEntry("user:u", "shared")
          .hasSize(2);
      assertThat(s.revision()).isEqualTo(s.id().equals("s00") ? 2 : 1);
    }
    assertThat(all.get(1).lastUpdateTime()).isEqualTo(Instant.ofEpochSecond(1006));
  }

  @Test
  void listSessionsPaged_tokenRoundTrips_andDefaultsHold() {
    List<String> expected = twentyFiveSessionsInPageOrder();
    ListSessionsResponse first =
        service
            .listSessions(APP, "alice", ListSessionsRequest.builder().pageSize(7).build())
            .blockingGet();
    String token = first.nextPageToken().orElseThrow();
    assertThat(token).matches("[A-Za-z0-9_-]+");
    // The same token gives the same page, whoever built the request around it.
    ListSessionsRequest next = ListSessionsRequest.builder().pageSize(7).pageToken(token).build();
    List<String> second =
        service.listSessions(APP, "alice", next).blockingGet().sessions().stream()
            .map(Session::id)
            .toList();
    assertThat(second).containsExactlyElementsOf(expected.subList(7, 14));
    assertThat(
            service.listSessions(APP, "alice", next.toBuilder().build()).blockingGet().sessions())
        .extracting(Session::id)
        .containsExactlyElementsOf(second);
    // A token does not fix the page size: the rest in one page of 100.
    ListSessionsResponse rest =
        service
            .listSessions(APP, "alice", ListSessionsRequest.builder().pageToken(token).build())
            .blockingGet();
    assertThat(rest.sessions())
        .extracting(Session::id)
        .containsExactlyElementsOf(expected.subList(7, 25));
    assertThat(rest.nextPageToken()).isEmpty();

    // Defaults: 100 a page, first page for no or an empty token, no token when all fit.
    assertThat(ListSessionsRequest.builder().build().pageSize()).isEqualTo(100);
    assertThat(ListSessionsRequest.firstPage().pageToken()).isEmpty();
    ListSessionsResponse whole =
        service
            .listSessions(APP, "alice", ListSessionsRequest.builder().pageToken("").build())
            .blockingGet();
    assertThat(whole.sessions()).extracting(Session::id).containsExactlyElementsOf(expected);
    assertThat(whole.nextPageToken()).isEmpty();
    // Exactly one full page: no token pointing at an empty page.
    ListSessionsResponse exact =
        service
            .listSessions(APP, "alice", ListSessionsRequest.builder().pageSize(25).build())
            .blockingGet();
    assertThat(exact.sessions()).hasSize(25);
    assertThat(exact.nextPageToken()).isEmpty();
    ListSessionsResponse nobody =
        service.listSessions(APP, "nobody", ListSessionsRequest.firstPage()).blockingGet();
    assertThat(nobody.sessions()).isEmpty();
    assertThat(nobody.nextPageToken()).isEmpty();
    // The old listing is unchanged: all, by id, no token.
    ListSessionsResponse old = service.listSessions(APP, "alice").blockingGet();
    assertThat(old.sessions()).extracting(Session::id).isSorted().hasSize(25);
    assertThat(old.nextPageToken()).isEmpty();
    assertThat(new ListSessionsResponse(List.of()).nextPageToken()).isEmpty();
  }

  @Test
  void listSessionsPaged_sessionDeletedOrUpdatedBetweenPages_othersStillComeOnce() {
    List<String> expected = twentyFiveSessionsInPageOrder();
    ListSessionsResponse first =
        service
            .listSessions(APP, "alice", ListSessionsRequest.builder().pageSize(10).build())
            .blockingGet();
    // The last session handed out is deleted, one still to come is updated (moves to the front).
    service.deleteSession(APP, "alice", expected.get(9)).blockingAwait();
    String moved = expected.get(15);
    service.appendEvent(get("alice", moved), textEvent("later", 5_000_000L)).blockingGet();
    ListSessionsResponse rest =
        service
            .listSessions(
                APP,
                "alice",
                ListSessionsRequest.builder()
                    .pageSize(100)
                    .pageToken(first.nextPageToken().orElseThrow())
                    .build())
            .blockingGet();
    List<String> remaining = new ArrayList<>(expected.subList(10, 25));
    remaining.remove(moved);
    assertThat(rest.sessions()).extracting(Session::id).containsExactlyElementsOf(remaining);
  }

  @Test
  void listSessionsPaged_sessionsUpdatedAtOneInstant_comeInCodePointOrderOfTheirIds() {
    // Java's String order puts U+1F986 (a surrogate pair, D83E DD86) before U+FB01; code point
    // order, which the databases use, puts it after. "a" < "a2" < "a10" < "b" either way.
    List<String> ids = List.of("b", "B", "a", "_", "é", "\uD83E\uDD86", "\uFB01", "a2", "a10");
    for (String id : ids) {
      Session s = create("alice", id, map());
      service.appendEvent(s, textEvent(id, 5000L)).blockingGet();
    }
    List<String> seen = new ArrayList<>();
    ListSessionsRequest request = ListSessionsRequest.builder().pageSize(2).build();
    while (true) {
      ListSessionsResponse page = service.listSessions(APP, "alice", request).blockingGet();
      page.sessions().forEach(s -> seen.add(s.id()));
      if (page.nextPageToken().isEmpty()) {
        break;
      }
      request = request.toBuilder().pageToken(page.nextPageToken().get()).build();
    }
    assertThat(seen)
        .containsExactly("B", "_", "a", "a10", "a2", "b", "é", "\uFB01", "\uD83E\uDD86");
  }

  @Test
  void pagedListings_refuseBadPageSizesAndMalformedTokens_namingTheProblem() {
    for (int bad : new int[] {0, -1, 1001}) {
      assertThatThrownBy(() -> ListSessionsRequest.builder().pageSize(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("pageSize")
          .hasMessageContaining("1000")
          .hasMessageContaining(Integer.toString(bad));
      assertThatThrownBy(() -> ListEventsRequest.builder().pageSize(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("pageSize");
    }
    assertThat(ListSessionsRequest.builder().pageSize(1).build().pageSize()).isEqualTo(1);
    assertThat(ListSessionsRequest.builder().pageSize(1000).build().pageSize()).isEqualTo(1000);
    assertThat(ListEventsRequest.builder().pageSize(1000).build().pageSize()).isEqualTo(1000);

    Session s = create("alice", "s1", map());
    for (int i = 1; i <= 3; i++) {
      service.appendEvent(s, textEvent("e" + i, i * 1000L)).blockingGet();
    }
    create("alice", "s2", map());
    String eventToken =
        service
            .listEvents(APP, "alice", "s1", ListEventsRequest.builder().pageSize(1).build())
            .blockingGet()
            .nextPageToken()
            .orElseThrow();
    String sessionToken =
        service
            .listSessions(APP, "alice", ListSessionsRequest.builder().pageSize(1).build())
            .blockingGet()
            .nextPageToken()
            .orElseThrow();
    for (String bad :
        List.of(
            "not a token!",
            "Zm9v", // "foo"
            eventToken,
            sessionToken.substring(0, sessionToken.length() - 4))) {
      assertThatThrownBy(
              () ->
                  service
                      .listSessions(
                          APP, "alice", ListSessionsRequest.builder().pageToken(bad).build())
                      .blockingGet())
          .as("session token %s", bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Malformed page token");
    }
    for (String bad : List.of("not a token!", "Zm9v", sessionToken)) {
      assertThatThrownBy(
              () ->
                  service
                      .listEvents(
                          APP, "alice", "s1", ListEventsRequest.builder().pageToken(bad).build())
                      .blockingGet())
          .as("event token %s", bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Malformed page token");
    }
    // A token of an oldest-first listing does not continue a newest-first one.
    assertThatThrownBy(
            () ->
                service
                    .listEvents(
                        APP,
                        "alice",
                        "s1",
                        ListEventsRequest.builder().newestFirst(true).pageToken(eventToken).build())
                    .blockingGet())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("newestFirst(false)");
  }

  private List<List<Long>> eventPages(String sessionId, ListEventsRequest request) {
    List<List<Long>> pages = new ArrayList<>();
    while (true) {
      ListEventsResponse page = service.listEvents(APP, "alice", sessionId, request).blockingGet();
      List<Long> secs = new ArrayList<>();
      page.events().forEach(e -> secs.add(e.timestamp() / 1000));
      pages.add(secs);
      if (page.nextPageToken().isEmpty()) {
        return pages;
      }
      assertThat(pages).hasSizeLessThan(20);
      request = request.toBuilder().pageToken(page.nextPageToken().get()).build();
    }
  }

  @Test
  void listEventsPaged_oldestFirst_andNewestFirst() {
    Session s = create("alice", "s1", map());
    for (int i = 1; i <= 7; i++) {
      service.appendEvent(s, textEvent("e" + i, i * 1000L)).blockingGet();
    }
    ListEventsRequest threes = ListEventsRequest.builder().pageSize(3).build();
    assertThat(eventPages("s1", threes))
        .containsExactly(List.of(1L, 2L, 3L), List.of(4L, 5L, 6L), List.of(7L));
    assertThat(eventPages("s1", threes.toBuilder().newestFirst(true).build()))
        .containsExactly(List.of(7L, 6L, 5L), List.of(4L, 3L, 2L), List.of(1L));
    // Seven in pages of seven: one page, no token.
    assertThat(eventPages("s1", threes.toBuilder().pageSize(7).build())).hasSize(1);
    assertThat(eventPages("s1", ListEventsRequest.builder().newestFirst(true).build()))
        .containsExactly(List.of(7L, 6L, 5L, 4L, 3L, 2L, 1L));
    assertThat(ListEventsRequest.builder().build().pageSize()).isEqualTo(100);
    assertThat(ListEventsRequest.builder().build().newestFirst()).isFalse();

    // Events appended during an oldest-first listing show on its later pages.
    ListEventsResponse first = service.listEvents(APP, "alice", "s1", threes).blockingGet();
    ListEventsResponse second =
        service
            .listEvents(
                APP,
                "alice",
                "s1",
                threes.toBuilder().pageToken(first.nextPageToken().orElseThrow()).build())
            .blockingGet();
    service.appendEvent(s, textEvent("e8", 8000L)).blockingGet();
    ListEventsResponse third =
        service
            .listEvents(
                APP,
                "alice",
                "s1",
                threes.toBuilder().pageToken(second.nextPageToken().orElseThrow()).build())
            .blockingGet();
    assertThat(third.events()).extracting(Event::timestamp).containsExactly(7000L, 8000L);
    assertThat(third.nextPageToken()).isEmpty();
    // Same events as the full listing, content included.
    assertThat(first.events())
        .containsExactlyElementsOf(
            service.listEvents(APP, "alice", "s1").blockingGet().events().subList(0, 3));

    Session empty = create("alice", "empty", map());
    ListEventsResponse none =
        service
            .listEvents(APP, "alice", empty.id(), ListEventsRequest.builder().build())
            .blockingGet();
    assertThat(none.events()).isEmpty();
    assertThat(none.nextPageToken()).isEmpty();
    assertThatThrownBy(
            () ->
                service
                    .listEvents(APP, "alice", "nope", ListEventsRequest.builder().build())
                    .blockingGet())
        .isInstanceOf(SessionNotFoundException.class);
    assertThat(new ListEventsResponse(List.of()).nextPageToken()).isEmpty();
  }

  @Test
  void getSession_afterRevision_keepsWhatWasAppendedSince_combinedWithTheOtherOptions() {
    Session s = sessionWithEventsAtSeconds1To5();
    assertThat(s.revision()).isEqualTo(5);
    GetSessionConfig.Builder b = GetSessionConfig.builder();
    assertThat(seconds(get("alice", "s1", b.afterRevision(0).build())))
        .containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(seconds(get("alice", "s1", GetSessionConfig.builder().afterRevision(2).build())))
        .containsExactly(3L, 4L, 5L);
    Session current = get("alice", "s1", GetSessionConfig.builder().afterRevision(5).build());
    assertThat(current.events()).isEmpty();
    assertThat(current.revision()).isEqualTo(5);
    assertThat(get("alice", "s1", GetSessionConfig.builder().afterRevision(50).build()).events())
        .isEmpty();
    assertThat(
            seconds(
                get(
                    "alice",
                    "s1",
                    GetSessionConfig.builder().afterRevision(2).numRecentEvents(2).build())))
        .containsExactly(4L, 5L);
    assertThat(
            seconds(
                get(
                    "alice",
                    "s1",
                    GetSessionConfig.builder().afterRevision(1).numRecentEvents(10).build())))
        .containsExactly(2L, 3L, 4L, 5L);
    assertThat(
            get(
                    "alice",
                    "s1",
                    GetSessionConfig.builder().afterRevision(0).numRecentEvents(0).build())
                .events())
        .isEmpty();
    assertThat(
            seconds(
                get(
                    "alice",
                    "s1",
                    GetSessionConfig.builder()
                        .afterRevision(1)
                        .afterTimestamp(Instant.ofEpochSecond(4))
                        .build())))
        .containsExactly(4L, 5L);
    assertThat(
            seconds(
                get(
                    "alice",
                    "s1",
                    GetSessionConfig.builder()
                        .afterRevision(3)
                        .afterTimestamp(Instant.ofEpochSecond(2))
                        .numRecentEvents(1)
                        .build())))
        .containsExactly(5L);

    // A caller holding a copy at revision r reads only what was appended since.
    Session held = get("alice", "s1");
    Session other = get("alice", "s1");
    service.appendEvent(other, textEvent("e6", 6000L)).blockingGet();
    service.appendEvent(other, textEvent("e7", 7000L)).blockingGet();
    Session since =
        get("alice", "s1", GetSessionConfig.builder().afterRevision(held.revision()).build());
    assertThat(seconds(since)).containsExactly(6L, 7L);
    assertThat(since.revision()).isEqualTo(7);

    assertThatThrownBy(() -> GetSessionConfig.builder().afterRevision(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("afterRevision");
    assertThat(GetSessionConfig.builder().afterRevision(3).build())
        .isEqualTo(GetSessionConfig.builder().afterRevision(3).build())
        .isNotEqualTo(GetSessionConfig.builder().afterRevision(4).build());
  }

  protected static Event compactionEvent(String summary, long start, long end, long timestamp) {
    return Event.builder()
        .invocationId("compaction")
        .author("user")
        .timestamp(timestamp)
        .actions(
            EventActions.builder()
                .compaction(
                    new dev.adk4j.events.EventCompaction(
                        start,
                        end,
                        Content.builder()
                            .role("model")
                            .parts(List.of(Part.fromText(summary)))
                            .build()))
                .build())
        .build();
  }

  /** The text of each event, or "C:" and the summary for a compaction event. */
  protected static List<String> texts(Session s) {
    List<String> out = new ArrayList<>();
    for (Event e : s.events()) {
      out.add(
          e.actions()
              .compaction()
              .map(c -> "C:" + c.compactedContent().parts().orElseThrow().get(0).text().orElse(""))
              .orElseGet(e::stringifyContent));
    }
    return out;
  }

  @Test
  void getSession_fromLatestCompaction_keepsTheLatestCompactionAndWhatFollows() {
    GetSessionConfig fromCompaction = GetSessionConfig.builder().fromLatestCompaction(true).build();
    Session s = create("alice", "s1", map());
    service.appendEvent(s, textEvent("p1", 1000L)).blockingGet();
    service.appendEvent(s, textEvent("p2", 2000L)).blockingGet();
    // None yet: all events.
    assertThat(texts(get("alice", "s1", fromCompaction))).containsExactly("p1", "p2");

    service.appendEvent(s, compactionEvent("one", 1000L, 2000L, 3000L)).blockingGet();
    // The compaction is the last event: only it.
    assertThat(texts(get("alice", "s1", fromCompaction))).containsExactly("C:one");
    service.appendEvent(s, textEvent("p3", 4000L)).blockingGet();
    assertThat(texts(get("alice", "s1", fromCompaction))).containsExactly("C:one", "p3");

    service.appendEvent(s, textEvent("p4", 5000L)).blockingGet();
    service.appendEvent(s, compactionEvent("two", 1000L, 5000L, 6000L)).blockingGet(); // rev 6
    service.appendEvent(s, textEvent("p5", 7000L)).blockingGet();
    service.appendEvent(s, textEvent("p6", 8000L)).blockingGet(); // rev 8
    assertThat(texts(get("alice", "s1", fromCompaction))).containsExactly("C:two", "p5", "p6");
    assertThat(get("alice", "s1").events()).hasSize(8);

    GetSessionConfig.Builder b = fromCompaction.toBuilder();
    assertThat(texts(get("alice", "s1", b.numRecentEvents(2).build()))).containsExactly("p5", "p6");
    assertThat(texts(get("alice", "s1", fromCompaction.toBuilder().numRecentEvents(5).build())))
        .containsExactly("C:two", "p5", "p6");
    // With afterRevision the later start wins.
    assertThat(texts(get("alice", "s1", fromCompaction.toBuilder().afterRevision(2).build())))
        .containsExactly("C:two", "p5", "p6");
    assertThat(texts(get("alice", "s1", fromCompaction.toBuilder().afterRevision(6).build())))
        .containsExactly("p5", "p6");
    assertThat(get("alice", "s1", fromCompaction.toBuilder().afterRevision(8).build()).events())
        .isEmpty();
    assertThat(
            texts(
                get(
                    "alice",
                    "s1",
                    fromCompaction.toBuilder().afterTimestamp(Instant.ofEpochSecond(7)).build())))
        .containsExactly("p5", "p6");
    // A partial compaction event is not stored and changes nothing.
    Event partial =
        compactionEvent("partial", 1000L, 8000L, 9000L).toBuilder().partial(true).build();
    service.appendEvent(s, partial).blockingGet();
    assertThat(texts(get("alice", "s1", fromCompaction))).containsExactly("C:two", "p5", "p6");
    // Other sessions are not affected.
    Session other = create("alice", "s2", map());
    service.appendEvent(other, textEvent("q1", 1000L)).blockingGet();
    assertThat(texts(get("alice", "s2", fromCompaction))).containsExactly("q1");
    assertThat(GetSessionConfig.builder().build().fromLatestCompaction()).isFalse();
  }

  // ---- size limits: the same limit and the same error on every service ----

  @Test
  void oversizedValueOrEvent_isRefusedUnderTheConfiguredLimit_withTheSameMessage_andNothingStored()
      throws Exception {
    BaseSessionService limited = createService(SessionLimits.of(100, 1000));
    try {
      assertThatThrownBy(
              () ->
                  limited
                      .createSession(APP, "alice", map("user:big", "x".repeat(200)), "s0")
                      .blockingGet())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "State value for key 'user:big' of session 's0' of user 'alice' in app 'my_app' is"
                  + " 202 bytes as JSON, over the limit of 100 bytes (maxValueBytes); nothing was"
                  + " stored");
      assertThat(limited.getSession(APP, "alice", "s0").blockingGet()).isNull();

      Session s = limited.createSession(APP, "alice", null, "s1").blockingGet();
      assertThatThrownBy(
              () ->
                  limited
                      .appendEvent(s, event(map("ok", 1, "big", "é".repeat(60), "app:a", 1)))
                      .blockingGet())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "State value for key 'big' of session 's1' of user 'alice' in app 'my_app' is 122"
                  + " bytes as JSON, over the limit of 100 bytes (maxValueBytes); nothing was"
                  + " stored");
      Event big = textEvent("y".repeat(2000), 1L);
      assertThatThrownBy(() -> limited.appendEvent(s, big).blockingGet())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith(
              "Event '" + big.id() + "' of session 's1' of user 'alice' in app 'my_app' is ")
          .hasMessageEndingWith(
              " bytes as JSON, over the limit of 1000 bytes (maxEventBytes); nothing was stored");
      assertThat(s.revision()).isZero();
      assertThat(s.state()).isEmpty();

      Session reloaded = limited.getSession(APP, "alice", "s1").blockingGet();
      assertThat(reloaded.events()).isEmpty();
      assertThat(reloaded.state()).isEmpty();
      assertThat(reloaded.revision()).isZero();
      assertThat(limited.getSession(APP, "bob", "none").blockingGet()).isNull();
      limited.appendEvent(s, event(map("big", "x".repeat(98)))).blockingGet();
      assertThat(limited.getSession(APP, "alice", "s1").blockingGet().state())
          .containsEntry("big", "x".repeat(98));
    } finally {
      closeService(limited);
    }
  }

  @Test
  void theEventLimit_countsFunctionArgumentsAndInlineData_andATempValueIsNotStoredSoNotCounted()
      throws Exception {
    BaseSessionService limited = createService(SessionLimits.of(100_000, 2_000));
    try {
      Session s = limited.createSession(APP, "alice", null, "s1").blockingGet();
      Event call =
          Event.builder()
              .author("agent")
              .content(
                  Content.fromParts(
                      Part.fromFunctionCall("lookup", Map.of("query", "q".repeat(3000)))))
              .build();
      Event image =
          Event.builder()
              .author("user")
              .content(Content.fromParts(Part.fromBytes(new byte[1600], "image/png")))
              .build();
      for (Event e : List.of(call, image)) {
        assertThatThrownBy(() -> limited.appendEvent(s, e).blockingGet())
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("Event '" + e.id() + "'")
            .hasMessageContaining("maxEventBytes");
      }
      limited.appendEvent(s, event(map("temp:scratch", "t".repeat(5000), "k", 1))).blockingGet();
      Session reloaded = limited.getSession(APP, "alice", "s1").blockingGet();
      assertThat(reloaded.events()).hasSize(1);
      assertThat(reloaded.state()).containsOnlyKeys("k");
    } finally {
      closeService(limited);
    }
  }

  @Test
  void defaultLimit_refusesAValueOver1MiB_andAcceptsOneOf1MiB() {
    Session s = create("alice", "s1", map());
    int limit = SessionLimits.DEFAULT_MAX_VALUE_BYTES;
    assertThatThrownBy(() -> append(s, map("blob", "x".repeat(limit - 1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'blob'")
        .hasMessageContaining("maxValueBytes");
    append(s, map("blob", "x".repeat(limit - 2))); // two quotes make exactly 1 MiB of JSON
    assertThat((String) get("alice", "s1").state().get("blob")).hasSize(limit - 2);
  }

  // ---- hostile input (issue 33): the same bounds on every backend, messages without data ----

  /**
   * Every operation a user of the app can make still works, for alice and for bob, and {@code
   * app:cfg} holds what it held.
   */
  private void assertEveryUserIsServed(Object appCfg) {
    for (String user : List.of("alice", "bob")) {
      assertThat(get(user, user + "-1").state()).containsEntry("app:cfg", appCfg);
      assertThat(service.listSessions(APP, user).blockingGet().sessions()).isNotEmpty();
      assertThat(
              service
                  .listSessions(APP, user, ListSessionsRequest.builder().pageSize(10).build())
                  .blockingGet()
                  .sessions())
          .isNotEmpty();
    }
    Session fresh = create("carol", "carol-" + UUID.randomUUID(), map("k", 1));
    assertThat(fresh.state()).containsEntry("app:cfg", appCfg);
    append(fresh, map("user:n", 1));
  }

  @Test
  void aHugeKeyInsideAnAppValue_isRefusedAtTheAppend_andEveryUserIsStillServed() {
    create("alice", "alice-1", map("app:cfg", map("mode", "on")));
    Session bob = create("bob", "bob-1", map());
    String huge = "x".repeat(50_001);
    for (Object value :
        List.of(
            map(huge, 1),
            map("nested", List.of(map(huge, true))),
            map("deeper", map("k", map(huge, "v"))))) {
      assertThatThrownBy(() -> append(bob, map("app:cfg", value)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'app:cfg'")
          .hasMessageContaining("State.MAX_KEY_BYTES")
          .hasMessageContaining("'bob'")
          .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(600).doesNotContain("xxxxx"));
    }
    assertThatThrownBy(() -> create("bob", "bob-2", map("app:cfg", map(huge, 1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("State.MAX_KEY_BYTES");
    assertThat(get("bob", "bob-1").events()).isEmpty();
    assertThat(get("bob", "bob-2")).isNull();
    assertEveryUserIsServed(Map.of("mode", "on"));
  }

  @Test
  void aHugeStateKey_isRefusedAtTheAppendAndAtCreation_namedInShort() {
    create("alice", "alice-1", map("app:cfg", 1));
    Session bob = create("bob", "bob-1", map());
    for (String key :
        List.of(
            "k".repeat(50_001),
            "user:" + "k".repeat(50_001),
            "app:" + "k".repeat(1 << 20),
            "€".repeat(342))) {
      assertThatThrownBy(() -> append(bob, map(key, 1)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("State.MAX_KEY_BYTES")
          .hasMessageContaining("characters)")
          .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(600));
      assertThatThrownBy(() -> create("bob", "bob-2", map(key, 1)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("State.MAX_KEY_BYTES");
    }
    // Increments go through the same check.
    Event increment =
        Event.builder()
            .invocationId("inv")
            .author("agent")
            .actions(EventActions.builder().stateIncrements(Map.of("n".repeat(2000), 1L)).build())
            .build();
    assertThatThrownBy(() -> service.appendEvent(bob, increment).blockingGet())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("State.MAX_KEY_BYTES");
    // At the bound, a key is stored and read back on every backend.
    String longest = "user:" + "k".repeat(State.MAX_KEY_BYTES - 5);
    append(bob, map(longest, "v"));
    assertThat(get("bob", "bob-1").state()).containsEntry(longest, "v");
    assertThat(get("bob", "bob-1").events()).hasSize(1);
    assertThat(get("bob", "bob-2")).isNull();
    assertEveryUserIsServed(1);
  }

  @Test
  void nesting_deeperThan500Levels_isRefused_500IsStored() {
    Session s = create("alice", "s1", map());
    Object deep = "leaf";
    for (int i = 0; i < State.MAX_DEPTH; i++) {
      deep = map("n", deep);
    }
    append(s, map("ok", deep));
    Object stored = get("alice", "s1").state().get("ok");
    int levels = 0;
    while (stored instanceof Map<?, ?> m) {
      levels++;
      stored = m.get("n");
    }
    assertThat(levels).isEqualTo(State.MAX_DEPTH);
    Object tooDeep = map("n", deep);
    assertThatThrownBy(() -> append(s, map("deep", tooDeep)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'deep'")
        .hasMessageContaining("State.MAX_DEPTH");
    assertThat(get("alice", "s1").state()).doesNotContainKey("deep");
  }

  @Test
  void aNumberADoubleWouldTurnIntoZero_isRefused_notStoredAsZero() {
    Session s = create("alice", "s1", map());
    assertThatThrownBy(() -> append(s, map("tiny", new java.math.BigDecimal("1e-400"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'tiny'")
        .hasMessageContaining("0.0");
    assertThatThrownBy(
            () -> append(s, map("m", map("v", List.of(new java.math.BigDecimal("-1e-400"))))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'m'");
    append(s, map("small", new java.math.BigDecimal("1e-300")));
    assertThat(get("alice", "s1").state()).containsOnlyKeys("small").containsEntry("small", 1e-300);
  }

  @Test
  void idsOfANewSession_overTheBound_areRefusedNamedInShort_andNothingIsStored() {
    String atBound = "u".repeat(SessionLimits.MAX_ID_BYTES);
    Session s = create(atBound, atBound, map("user:k", 1));
    assertThat(get(atBound, atBound).state()).containsEntry("user:k", 1);
    append(s, map("k", 2));
    String over = "é".repeat(SessionLimits.MAX_ID_BYTES / 2 + 1); // 2 bytes each
    String huge = "i".repeat(1 << 20);
    for (String[] ids :
        List.of(
            new String[] {APP, "alice", over, "sessionId"},
            new String[] {APP, over, "s1", "userId"},
            new String[] {over, "alice", "s1", "appName"},
            new String[] {APP, huge, "s1", "userId"})) {
      assertThatThrownBy(
              () -> service.createSession(ids[0], ids[1], map("user:k", 1), ids[2]).blockingGet())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(ids[3])
          .hasMessageContaining("SessionLimits.MAX_ID_BYTES")
          .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(400));
    }
    assertThat(service.listSessions(APP, "alice").blockingGet().sessions()).isEmpty();
    // Reads of such ids find nothing, with messages as short.
    assertThat(service.getSession(APP, huge, "s1").blockingGet()).isNull();
    assertThatThrownBy(() -> service.listEvents(APP, huge, "s1").blockingGet())
        .isInstanceOf(SessionNotFoundException.class)
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(400));
  }
}
