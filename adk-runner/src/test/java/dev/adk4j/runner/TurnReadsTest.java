package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventCompaction;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.GetSessionConfig;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.ListEventsResponse;
import dev.adk4j.sessions.ListSessionsResponse;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What a turn reads from the session service, and what the model receives, on every backend: a
 * runner that served the previous turn reads only the events appended since (none, or another
 * instance's), a fresh runner reads from the latest compaction on, and either way the model gets
 * the same history.
 */
class TurnReadsTest {

  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  enum Backend {
    MEMORY,
    SQLITE,
    POSTGRES
  }

  static final String APP = "app";
  static final String USER = "u";

  @TempDir Path dir;
  final List<AutoCloseable> opened = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : opened) {
      c.close();
    }
    POSTGRES.dropDatabases();
  }

  BaseSessionService open(Backend backend) throws Exception {
    switch (backend) {
      case MEMORY:
        return new InMemorySessionService();
      case SQLITE:
        DatabaseSessionService sqlite =
            new DatabaseSessionService("jdbc:sqlite:" + dir.resolve("s.db"));
        opened.add(sqlite);
        return sqlite;
      default:
        DatabaseSessionService pg = new DatabaseSessionService(POSTGRES.newMigratedDatabase());
        opened.add(pg);
        return pg;
    }
  }

  /** One getSession call as the runner made it. */
  record Read(GetSessionConfig config, int eventsReturned) {}

  /** A session service that records each getSession and passes everything on. */
  static final class Recording implements BaseSessionService {
    final BaseSessionService inner;
    final List<Read> reads = new CopyOnWriteArrayList<>();

    Recording(BaseSessionService inner) {
      this.inner = inner;
    }

    @Override
    public Single<Session> createSession(
        String app,
        String user,
        @Nullable Map<String, ? extends @Nullable Object> state,
        @Nullable String id) {
      return inner.createSession(app, user, state, id);
    }

    @Override
    public Maybe<Session> getSession(
        String app, String user, String id, Optional<GetSessionConfig> config) {
      return inner
          .getSession(app, user, id, config)
          .doOnSuccess(
              s ->
                  reads.add(
                      new Read(
                          config.orElse(GetSessionConfig.builder().build()), s.events().size())));
    }

    @Override
    public Single<ListSessionsResponse> listSessions(String app, String user) {
      return inner.listSessions(app, user);
    }

    @Override
    public Completable deleteSession(String app, String user, String id) {
      return inner.deleteSession(app, user, id);
    }

    @Override
    public Single<ListEventsResponse> listEvents(String app, String user, String id) {
      return inner.listEvents(app, user, id);
    }

    @Override
    public Single<Event> appendEvent(Session session, Event event) {
      return inner.appendEvent(session, event);
    }

    @Override
    public Single<dev.adk4j.sessions.SessionLease> acquireLease(
        String app, String user, String id, java.time.Duration maxWait) {
      return inner.acquireLease(app, user, id, maxWait);
    }

    Read last() {
      return reads.get(reads.size() - 1);
    }
  }

  static String texts(LlmRequest request) {
    StringBuilder sb = new StringBuilder();
    for (Content c : request.contents()) {
      sb.append(Contents.text(c)).append('|');
    }
    return sb.toString();
  }

  ScriptedLlm echo() {
    return ScriptedLlm.answering(
        req -> ScriptedLlm.textResponse("echo " + Contents.lastUserText(req)));
  }

  static void turn(Runner runner, String text) {
    runner.runAsync(USER, "s", Contents.user(text)).blockingSubscribe();
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void theRunnerThatServedTheLastTurn_readsOnlyWhatWasAppendedSince(Backend backend)
      throws Exception {
    Recording sessions = new Recording(open(backend));
    sessions.createSession(APP, USER, null, "s").blockingGet();
    ScriptedLlm model = echo();
    Runner first =
        new Runner(LlmAgent.builder().name("A").model(model).build(), APP, null, sessions);
    Runner other =
        new Runner(LlmAgent.builder().name("A").model(echo()).build(), APP, null, sessions);

    turn(first, "one");
    assertThat(sessions.last().config().afterRevision()).isEmpty(); // cold: everything (0 events)
    turn(first, "two");
    Read warm = sessions.last();
    assertThat(warm.config().afterRevision()).contains(2L);
    assertThat(warm.eventsReturned()).isZero(); // nothing new: no event read

    turn(other, "from another instance"); // its own cold read: all 4 events
    turn(first, "three");
    Read afterOther = sessions.last();
    assertThat(afterOther.config().afterRevision()).contains(4L);
    assertThat(afterOther.eventsReturned()).isEqualTo(2); // just the other instance's turn
    // The model got the whole history all the same.
    assertThat(texts(model.lastRequest()))
        .isEqualTo(
            "one|echo one|two|echo two|from another instance|echo from another instance|three|");
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void aFreshRunnerWithCompaction_readsFromTheLatestCompaction_andSendsTheSameHistory(
      Backend backend) throws Exception {
    Recording sessions = new Recording(open(backend));
    sessions.createSession(APP, USER, null, "s").blockingGet();
    List<List<String>> inputs = new CopyOnWriteArrayList<>();
    EventsCompactionConfig config =
        EventsCompactionConfig.of(2, 1)
            .withSummarizer(
                (previous, events) ->
                    Maybe.just(events.stream().map(Event::stringifyContent).toList())
                        .doOnSuccess(inputs::add)
                        .map(
                            ignored ->
                                new EventCompaction(
                                    previous != null
                                        ? previous.startTimestamp()
                                        : events.get(0).timestamp(),
                                    events.get(events.size() - 1).timestamp(),
                                    Content.builder()
                                        .role("model")
                                        .parts(Part.fromText("SUM"))
                                        .build())));
    ScriptedLlm warmModel = echo();
    Runner warm =
        new Runner(
            LlmAgent.builder().name("A").model(warmModel).build(), APP, null, sessions, config);
    for (String t : List.of("a", "b", "c", "d", "e")) {
      turn(warm, t);
    }
    // Compactions after b and d: 10 turn events + 2 compaction events.
    assertThat(sessions.listEvents(APP, USER, "s").blockingGet().events()).hasSize(12);

    ScriptedLlm coldModel = echo();
    Runner cold =
        new Runner(
            LlmAgent.builder().name("A").model(coldModel).build(), APP, null, sessions, config);
    turn(cold, "f");
    Read read = sessions.reads.get(sessions.reads.size() - 1);
    assertThat(read.config().fromLatestCompaction()).isTrue();
    assertThat(read.eventsReturned()).isEqualTo(3); // the compaction, e, echo e
    turn(warm, "g"); // the warm runner catches up with f's turn and its compaction
    assertThat(texts(coldModel.lastRequest()))
        .isEqualTo("For context, a summary of the conversation so far:SUM|e|echo e|f|");
    assertThat(texts(warmModel.lastRequest()))
        .startsWith("For context, a summary of the conversation so far:SUM|");
    // f completed an interval (e, f): the cold runner compacted with its overlap read back.
    List<Event> all = sessions.listEvents(APP, USER, "s").blockingGet().events();
    assertThat(all.stream().filter(e -> e.actions().compaction().isPresent())).hasSize(3);
    // Its summarizer saw the overlap (d's turn, before the latest compaction), read back.
    assertThat(inputs.get(2)).containsExactly("d", "echo d", "e", "echo e", "f", "echo f");
  }

  /**
   * A turn takes the session's lease with its first append when the session is free (on the
   * databases, in that append's transaction). When another holder has it, that append stores
   * nothing: the turn waits in the session's queue (and says so), then starts over on a fresh read,
   * storing its message once and calling the plugins' user-message hook once. While the turn runs,
   * nobody else can take the session.
   */
  @ParameterizedTest
  @EnumSource(Backend.class)
  void aTurnOnAHeldSession_waitsForTheLease_thenStoresItsMessageOnce(Backend backend)
      throws Exception {
    BaseSessionService sessions = open(backend);
    sessions.createSession(APP, USER, null, "s").blockingGet();
    List<String> othersDuringTheTurn = new CopyOnWriteArrayList<>();
    ScriptedLlm model =
        ScriptedLlm.answering(
            req -> {
              try {
                sessions
                    .acquireLease(APP, USER, "s", java.time.Duration.ZERO)
                    .blockingGet()
                    .close();
                othersDuringTheTurn.add("took the lease");
              } catch (dev.adk4j.sessions.SessionBusyException e) {
                othersDuringTheTurn.add("busy");
              }
              return ScriptedLlm.textResponse("echo " + Contents.lastUserText(req));
            });
    java.util.concurrent.atomic.AtomicInteger userMessageHooks =
        new java.util.concurrent.atomic.AtomicInteger();
    dev.adk4j.plugins.BasePlugin counting =
        new dev.adk4j.plugins.BasePlugin("counting") {
          @Override
          public Maybe<Content> onUserMessageCallback(
              dev.adk4j.agents.InvocationContext ctx, Content message) {
            userMessageHooks.incrementAndGet();
            return Maybe.just(Contents.user(Contents.text(message) + "!"));
          }
        };
    Runner runner =
        Runner.builder()
            .agent(LlmAgent.builder().name("A").model(model).build())
            .appName(APP)
            .sessionService(sessions)
            .plugins(counting)
            .build();

    dev.adk4j.sessions.SessionLease holder =
        sessions.acquireLease(APP, USER, "s", java.time.Duration.ZERO).blockingGet();
    java.util.concurrent.CountDownLatch waiting = new java.util.concurrent.CountDownLatch(1);
    dev.adk4j.agents.RunConfig config =
        dev.adk4j.agents.RunConfig.builder()
            .maxSessionWait(java.time.Duration.ofSeconds(30))
            .sessionWaitListener(w -> waiting.countDown())
            .build();
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      java.util.concurrent.Future<List<Event>> turn =
          pool.submit(
              () ->
                  runner.runAsync(USER, "s", Contents.user("one"), config).toList().blockingGet());
      assertThat(waiting.await(30, java.util.concurrent.TimeUnit.SECONDS))
          .as("the turn waits for the lease")
          .isTrue();
      assertThat(sessions.getSession(APP, USER, "s").blockingGet().events()).isEmpty();
      holder.close();
      assertThat(turn.get(30, java.util.concurrent.TimeUnit.SECONDS))
          .extracting(e -> Contents.text(e.content().orElseThrow()))
          .containsExactly("echo one!");
    } finally {
      pool.shutdownNow();
    }
    List<String> stored = new ArrayList<>();
    for (Event e : sessions.getSession(APP, USER, "s").blockingGet().events()) {
      stored.add(Contents.text(e.content().orElseThrow()));
    }
    assertThat(stored).containsExactly("one!", "echo one!");
    assertThat(userMessageHooks).hasValue(1);
    assertThat(othersDuringTheTurn).containsExactly("busy");
    // Released at the end: the next turn, and anyone else, takes the session at once.
    sessions.acquireLease(APP, USER, "s", java.time.Duration.ZERO).blockingGet().close();
    turn(runner, "two");
    assertThat(sessions.getSession(APP, USER, "s").blockingGet().events()).hasSize(4);
    assertThat(userMessageHooks).hasValue(2);
  }

  @org.junit.jupiter.api.Test
  void theLeaseIsReleasedBeforeTheRunCompletes_soTheServiceCanBeClosedRightAfter() {
    String url = "jdbc:sqlite:" + dir.resolve("closing.db");
    try (DatabaseSessionService service = new DatabaseSessionService(url)) {
      service.createSession(APP, USER, null, "s").blockingGet();
      turn(
          new Runner(LlmAgent.builder().name("A").model(echo()).build(), APP, null, service), "hi");
    }
    try (DatabaseSessionService reopened = new DatabaseSessionService(url)) {
      // Free at once: no lease was left behind to expire.
      reopened.acquireLease(APP, USER, "s", java.time.Duration.ZERO).blockingGet().close();
    }
  }
}
