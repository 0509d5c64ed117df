package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import com.google.genai.types.Schema;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.artifacts.InMemoryArtifactService;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.runner.TestBackends.Backend;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionLimits;
import dev.adk4j.sessions.SessionNotFoundException;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import dev.adk4j.sessions.StaleSessionException;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.Annotations;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.ThrowingConsumer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input, on every backend (in memory, SQLite, PostgreSQL): ids, keys, values, sessions that are
 * missing, deleted or stale, event ids appended twice, templates, model output, tool arguments,
 * transfers and artifact names. Each case of the matrix asserts the exception's type, that its
 * message names the bad thing (and the app, user and session where the failure is about one), and
 * that nothing was stored: a fresh read of the session, of another session of the same user (its
 * {@code user:} and {@code app:} state) and of the user's session list gives what it gave before;
 * for a failed Runner turn, only events without state (the user's message, error responses, the
 * final error event) were added, and the history is one a model accepts.
 *
 * <p>Errors that reach the model rather than the caller (a tool that fails, a bad argument, an
 * unknown transfer target) are asserted the same way: the case's exception is then {@link
 * ToolErrorResponse}, carrying the text of the function response's {@code error}.
 */
class BadInputMatrixTest {

  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  /** Small limits, so that "too large" stays cheap: 2,000 bytes a value, 8,000 an event. */
  static final SessionLimits LIMITS = SessionLimits.of(2_000, 8_000);

  @TempDir static Path dir;
  static TestBackends backends;
  static final AtomicInteger APPS = new AtomicInteger();

  @BeforeAll
  static void open() throws Exception {
    backends = new TestBackends(POSTGRES, dir, LIMITS);
  }

  @AfterAll
  static void close() throws Exception {
    backends.close();
  }

  // ---- the fixture: a session with state in all three scopes and one event ----

  /** The error a function response carried to the model, raised here so a case can assert it. */
  static final class ToolErrorResponse extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ToolErrorResponse(String message) {
      super(message);
    }
  }

  /** One case's world: its own app, a user with session {@code s} and a witness session. */
  static final class Fx {
    final BaseSessionService sessions;
    final String app = "app-" + APPS.incrementAndGet();
    final String user = "alice";
    final String sid = "s";
    final String witness = "w";
    final InMemoryArtifactService artifacts = new InMemoryArtifactService();
    Event first;

    /** What a case's arrange step keeps for its action (an old copy, a deleted session's copy). */
    @Nullable Session kept;

    Fx(BaseSessionService sessions) {
      this.sessions = sessions;
      Session s =
          sessions
              .createSession(
                  app, user, Map.of("topic", "cats", "user:name", "Ann", "app:version", "1"), sid)
              .blockingGet();
      first = sessions.appendEvent(s, event(Map.of("count", 1))).blockingGet();
      sessions.createSession(app, user, Map.of("w", true), witness).blockingGet();
      artifacts.saveArtifact(app, user, sid, "notes.txt", Part.fromText("kept")).blockingGet();
    }

    /** A fresh read of {@code s}. */
    Session session() {
      return sessions.getSession(app, user, sid).blockingGet();
    }

    Runner runner(LlmAgent agent) {
      return new Runner(agent, app, artifacts, sessions);
    }

    /**
     * Runs one turn; rethrows the run's error. If the run succeeds but a function response of it
     * carries an error, throws {@link ToolErrorResponse} with that error.
     */
    void turn(LlmAgent agent) {
      turn(agent, null);
    }

    void turn(LlmAgent agent, @Nullable Map<String, Object> stateDelta) {
      Throwable[] error = new Throwable[1];
      List<Event> emitted = new java.util.concurrent.CopyOnWriteArrayList<>();
      runner(agent)
          .runAsync(user, sid, Contents.user("go"), RunConfig.builder().build(), stateDelta)
          .blockingSubscribe(emitted::add, e -> error[0] = e);
      if (error[0] == null) {
        // A failed invocation ends with its error event; the exception behind it is its cause.
        error[0] =
            InvocationFailedException.of(emitted)
                .map(InvocationFailedException::failure)
                .orElse(null);
      }
      if (error[0] instanceof RuntimeException) {
        throw (RuntimeException) error[0];
      }
      if (error[0] != null) {
        throw new AssertionError("the turn failed with a checked exception", error[0]);
      }
      for (Event e : session().events()) {
        for (FunctionResponse r : e.functionResponses()) {
          Object err = r.response().orElse(Map.of()).get("error");
          if (err != null) {
            throw new ToolErrorResponse(String.valueOf(err));
          }
        }
      }
    }
  }

  record Snapshot(
      @Nullable Session session,
      @Nullable Session witness,
      List<String> sessionIds,
      List<String> artifacts) {

    static Snapshot of(Fx fx) {
      List<String> ids = new ArrayList<>();
      fx.sessions
          .listSessions(fx.app, fx.user)
          .blockingGet()
          .sessions()
          .forEach(s -> ids.add(s.id()));
      return new Snapshot(
          StoredHistory.read(fx.sessions, fx.app, fx.user, fx.sid),
          StoredHistory.read(fx.sessions, fx.app, fx.user, fx.witness),
          ids,
          fx.artifacts.listArtifactKeys(fx.app, fx.user, fx.sid).blockingGet().filenames());
    }
  }

  /** What may be stored by a case's failed action. */
  enum Stored {
    /** Nothing at all. */
    NOTHING,
    /** A failed or corrected Runner turn: only events without state or artifact changes. */
    STATELESS_EVENTS
  }

  record Case(
      String name,
      Class<? extends Throwable> type,
      Function<Fx, List<String>> names,
      Stored stored,
      ThrowingConsumer<Fx> arrange,
      ThrowingConsumer<Fx> action) {

    @Override
    public String toString() {
      return name;
    }
  }

  static Case refused(
      String name,
      Class<? extends Throwable> type,
      Function<Fx, List<String>> names,
      ThrowingConsumer<Fx> action) {
    return new Case(name, type, names, Stored.NOTHING, fx -> {}, action);
  }

  static Case turnFails(
      String name,
      Class<? extends Throwable> type,
      Function<Fx, List<String>> names,
      ThrowingConsumer<Fx> action) {
    return new Case(name, type, names, Stored.STATELESS_EVENTS, fx -> {}, action);
  }

  static Function<Fx, List<String>> names(String... parts) {
    return fx -> List.of(parts);
  }

  /** {@code parts} and the app, user and session {@code s} of the case. */
  static Function<Fx, List<String>> namesInSession(String... parts) {
    return namesIn(false, parts);
  }

  /** {@code parts} and the app, user and session {@code new} the case tried to create. */
  static Function<Fx, List<String>> namesInCreated(String... parts) {
    return namesIn(true, parts);
  }

  private static Function<Fx, List<String>> namesIn(boolean created, String... parts) {
    return fx -> {
      List<String> all = new ArrayList<>(List.of(parts));
      all.addAll(
          List.of("'" + fx.app + "'", "'" + fx.user + "'", "'" + (created ? "new" : fx.sid) + "'"));
      return all;
    };
  }

  static Event event(Map<String, ?> delta) {
    return Event.builder()
        .invocationId("inv")
        .author("system")
        .actions(EventActions.builder().stateDelta(delta).build())
        .build();
  }

  static Map<String, Object> entry(@Nullable String key, @Nullable Object value) {
    Map<String, Object> m = new HashMap<>();
    m.put(key, value);
    return m;
  }

  static void create(Fx fx, Map<String, Object> state) {
    fx.sessions.createSession(fx.app, fx.user, state, "new").blockingGet();
  }

  static void append(Fx fx, Map<String, ?> delta) {
    fx.sessions.appendEvent(fx.session(), event(delta)).blockingGet();
  }

  // ---- bad values ----

  static Map<String, Object> cyclic() {
    Map<String, Object> m = new HashMap<>();
    m.put("self", m);
    return m;
  }

  static Object nested(int depth) {
    Object v = "bottom";
    for (int i = 0; i < depth; i++) {
      v = List.of(v);
    }
    return v;
  }

  static String large() {
    return "x".repeat(LIMITS.maxValueBytes() + 100);
  }

  /** Jackson writes it ({"task":{"name":"t"}}) but cannot build a Runnable from that. */
  record Scheduled(Runnable task) {}

  /** A task with a name; not data Jackson can rebuild behind the Runnable interface. */
  public static final class NamedTask implements Runnable {
    public String getName() {
      return "t";
    }

    @Override
    public void run() {}
  }

  /** The bad values, each by name: what {@code State} and every service refuse. */
  static List<Object[]> badValues() {
    Supplier<String> lambda = () -> "x";
    return List.of(
        new Object[] {"a plain Object", new Object(), "java.lang.Object"},
        new Object[] {"a lambda", lambda, "lambda"},
        new Object[] {"a Thread", new Thread(() -> {}), "java.lang.Thread"},
        new Object[] {"a map containing itself", cyclic(), "cyclic"},
        new Object[] {"a list nested 600 deep", nested(600), "nested too deeply"},
        new Object[] {"NaN", Double.NaN, "NaN"},
        new Object[] {"1e400 as a BigDecimal", new BigDecimal("1e400"), "Infinity"},
        new Object[] {
          "a record Jackson cannot read back", new Scheduled(new NamedTask()), "cannot read it back"
        });
  }

  // ---- tools and callbacks ----

  /** Tools written as plain methods, through {@link FunctionTool}. */
  public static final class Tools {
    static final AtomicInteger REPEATS = new AtomicInteger();

    /** Writes a good key, then a bad one: the call fails, and neither write may be stored. */
    public static Map<String, Object> writeThenFail(ToolContext ctx) {
      ctx.state().put("user:ok", "fine");
      ctx.state().put("obj", new Object());
      return Map.of("done", true);
    }

    /** Writes a value over the size limit (valid JSON, refused only by the store). */
    public static Map<String, Object> writeLarge(ToolContext ctx) {
      ctx.state().put("user:big", large());
      return Map.of("done", true);
    }

    /** Writes an unreadable record under "job". */
    public static Map<String, Object> writeRecord(ToolContext ctx) {
      ctx.state().put("job", new Scheduled(new NamedTask()));
      return Map.of("done", true);
    }

    /** Counts its runs; the model calls it with a string for {@code times}. */
    public static Map<String, Object> repeat(
        @Annotations.Schema(name = "times") int times, ToolContext ctx) {
      REPEATS.incrementAndGet();
      ctx.state().put("repeated", times);
      return Map.of("times", times);
    }

    /** Saves an artifact whose name leaves the session. */
    public static Map<String, Object> saveOutside(ToolContext ctx) {
      ctx.state().put("saved", true);
      int v = ctx.saveArtifact("../x", Part.fromText("escaped")).blockingGet();
      return Map.of("version", v);
    }
  }

  /** A tool named {@code name} running {@code body}, built by hand. */
  static BaseTool tool(String name, ThrowingConsumer<ToolContext> body) {
    return new BaseTool(name, name) {
      @Override
      public Optional<FunctionDeclaration> declaration() {
        return Optional.of(FunctionDeclaration.builder().name(name).build());
      }

      @Override
      public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext ctx) {
        return Single.fromCallable(
            () -> {
              try {
                body.accept(ctx);
              } catch (RuntimeException e) {
                throw e;
              } catch (Throwable t) {
                throw new IllegalStateException(t);
              }
              return Map.<String, Object>of("done", true);
            });
      }
    };
  }

  /** An agent whose model calls {@code tool} once, then answers "done". */
  static LlmAgent callsTool(BaseTool tool) {
    return callsTool(tool, Map.of());
  }

  static LlmAgent callsTool(BaseTool tool, Map<String, ?> args) {
    ScriptedLlm llm =
        ScriptedLlm.builder().thenFunctionCall(tool.name(), args).thenText("done").build();
    return LlmAgent.builder().name("worker").model(llm).tools(tool).build();
  }

  static LlmAgent answering(String instruction) {
    return LlmAgent.builder()
        .name("templated")
        .model(ScriptedLlm.answering(r -> ScriptedLlm.textResponse("ok")))
        .instruction(instruction)
        .build();
  }

  /** An agent whose before-agent callback writes {@code value} under {@code key}. */
  static LlmAgent callbackWriting(String key, Object value) {
    return LlmAgent.builder()
        .name("cb")
        .model(ScriptedLlm.answering(r -> ScriptedLlm.textResponse("never reached")))
        .beforeAgentCallback(
            cc -> {
              cc.state().put("user:before", "written first");
              cc.state().put(key, value);
              return Maybe.empty();
            })
        .build();
  }

  // ---- the matrix ----

  static List<Case> cases() {
    List<Case> cases = new ArrayList<>();
    Class<IllegalArgumentException> iae = IllegalArgumentException.class;
    Class<NullPointerException> npe = NullPointerException.class;

    // Ids: null, empty or whitespace only, on every operation.
    cases.add(
        refused(
            "create: null appName",
            npe,
            names("appName"),
            fx -> fx.sessions.createSession(null, fx.user, null, "new").blockingGet()));
    cases.add(
        refused(
            "create: empty appName",
            iae,
            names("appName"),
            fx -> fx.sessions.createSession("", fx.user, null, "new").blockingGet()));
    cases.add(
        refused(
            "create: blank appName",
            iae,
            names("appName", "blank"),
            fx -> fx.sessions.createSession("   ", fx.user, null, "new").blockingGet()));
    cases.add(
        refused(
            "create: null userId",
            npe,
            names("userId"),
            fx -> fx.sessions.createSession(fx.app, null, null, "new").blockingGet()));
    cases.add(
        refused(
            "create: empty userId",
            iae,
            names("userId"),
            fx -> fx.sessions.createSession(fx.app, "", null, "new").blockingGet()));
    cases.add(
        refused(
            "create: blank userId",
            iae,
            names("userId", "blank"),
            fx -> fx.sessions.createSession(fx.app, "\t", null, "new").blockingGet()));
    cases.add(
        refused(
            "create: empty sessionId",
            iae,
            names("sessionId"),
            fx -> fx.sessions.createSession(fx.app, fx.user, null, "").blockingGet()));
    cases.add(
        refused(
            "create: whitespace-only sessionId",
            iae,
            names("sessionId", "blank"),
            fx -> fx.sessions.createSession(fx.app, fx.user, null, " ").blockingGet()));
    cases.add(
        refused(
            "create: sessionId of newlines and tabs",
            iae,
            names("sessionId", "blank"),
            fx -> fx.sessions.createSession(fx.app, fx.user, null, "\n\t ").blockingGet()));
    cases.add(
        refused(
            "get: null sessionId",
            npe,
            names("sessionId"),
            fx -> fx.sessions.getSession(fx.app, fx.user, null).blockingGet()));
    cases.add(
        refused(
            "get: blank sessionId",
            iae,
            names("sessionId"),
            fx -> fx.sessions.getSession(fx.app, fx.user, "  ").blockingGet()));
    cases.add(
        refused(
            "get: blank appName",
            iae,
            names("appName"),
            fx -> fx.sessions.getSession(" ", fx.user, fx.sid).blockingGet()));
    cases.add(
        refused(
            "delete: blank userId",
            iae,
            names("userId"),
            fx -> fx.sessions.deleteSession(fx.app, " ", fx.sid).blockingAwait()));
    cases.add(
        refused(
            "delete: empty sessionId",
            iae,
            names("sessionId"),
            fx -> fx.sessions.deleteSession(fx.app, fx.user, "").blockingAwait()));
    cases.add(
        refused(
            "list sessions: blank appName",
            iae,
            names("appName"),
            fx -> fx.sessions.listSessions("\u2003", fx.user).blockingGet()));
    cases.add(
        refused(
            "list sessions: null userId",
            npe,
            names("userId"),
            fx -> fx.sessions.listSessions(fx.app, null).blockingGet()));
    cases.add(
        refused(
            "list events: blank sessionId",
            iae,
            names("sessionId"),
            fx -> fx.sessions.listEvents(fx.app, fx.user, " ").blockingGet()));
    cases.add(
        refused(
            "lease: blank userId",
            iae,
            names("userId"),
            fx ->
                fx.sessions
                    .acquireLease(fx.app, "  ", fx.sid, java.time.Duration.ofMillis(10))
                    .blockingGet()));
    cases.add(
        refused(
            "append: a Session copy with a blank id cannot be built",
            iae,
            names("id"),
            fx ->
                fx.sessions
                    .appendEvent(
                        Session.builder(" ").appName(fx.app).userId(fx.user).build(),
                        event(Map.of("k", 1)))
                    .blockingGet()));
    cases.add(
        refused(
            "runner: blank sessionId",
            iae,
            names("sessionId", "blank"),
            fx ->
                fx.runner(answering("hi"))
                    .runAsync(fx.user, " ", Contents.user("go"))
                    .blockingSubscribe()));
    cases.add(
        refused(
            "runner: empty userId",
            iae,
            names("userId"),
            fx ->
                fx.runner(answering("hi"))
                    .runAsync("", fx.sid, Contents.user("go"))
                    .blockingSubscribe()));
    cases.add(
        refused(
            "runner: blank appName",
            iae,
            names("appName", "blank"),
            fx -> new Runner(answering("hi"), " \t", null, fx.sessions)));

    // Keys: empty, a bare prefix, null. (Unknown prefixes are ordinary keys: see below.)
    cases.add(
        refused(
            "create: empty key", iae, namesInCreated("empty key"), fx -> create(fx, entry("", 1))));
    cases.add(
        refused(
            "create: bare 'user:'",
            iae,
            namesInCreated("'user:'", "no name"),
            fx -> create(fx, entry("user:", 1))));
    cases.add(
        refused(
            "create: bare 'app:'",
            iae,
            namesInCreated("'app:'", "no name"),
            fx -> create(fx, entry("app:", 1))));
    cases.add(
        refused(
            "create: bare 'temp:' (refused, not dropped)",
            iae,
            namesInCreated("'temp:'", "no name"),
            fx -> create(fx, entry("temp:", 1))));
    cases.add(
        refused(
            "create: null key", iae, namesInCreated("got null"), fx -> create(fx, entry(null, 1))));
    cases.add(
        refused(
            "append: empty key", iae, namesInSession("empty key"), fx -> append(fx, entry("", 1))));
    cases.add(
        refused(
            "append: bare 'user:'",
            iae,
            namesInSession("'user:'"),
            fx -> append(fx, entry("user:", 1))));
    cases.add(
        refused(
            "append: bare 'app:' next to a good key",
            iae,
            namesInSession("'app:'"),
            fx -> {
              Map<String, Object> delta = new LinkedHashMap<>();
              delta.put("good", 1);
              delta.put("app:", 2);
              append(fx, delta);
            }));
    cases.add(
        refused(
            "append: bare 'temp:'",
            iae,
            namesInSession("'temp:'"),
            fx -> append(fx, entry("temp:", 1))));
    cases.add(
        refused(
            "append: null key", iae, namesInSession("got null"), fx -> append(fx, entry(null, 1))));
    cases.add(
        refused(
            "append: increment of a bare 'user:'",
            iae,
            namesInSession("'user:'"),
            fx ->
                fx.sessions
                    .appendEvent(
                        fx.session(),
                        Event.builder()
                            .author("system")
                            .actions(EventActions.builder().incrementState("user:", 1).build())
                            .build())
                    .blockingGet()));
    cases.add(
        refused(
            "append: increment of a key holding text",
            iae,
            namesInSession("'topic'", "not an integer"),
            fx ->
                fx.sessions
                    .appendEvent(
                        fx.session(),
                        Event.builder()
                            .author("system")
                            .actions(
                                EventActions.builder()
                                    .putState("user:other", 1)
                                    .incrementState("topic", 1)
                                    .build())
                            .build())
                    .blockingGet()));
    cases.add(
        refused(
            "agent: outputKey 'user:'",
            iae,
            names("'user:'"),
            fx -> LlmAgent.builder().name("a").outputKey("user:")));

    // Values, straight into createSession and appendEvent, in every scope.
    String[] scopes = {"", "user:", "app:"};
    int n = 0;
    for (Object[] bad : badValues()) {
      String key = scopes[n++ % scopes.length] + "bad";
      Object value = bad[1];
      String why = (String) bad[2];
      cases.add(
          refused(
              "create: " + bad[0] + " under '" + key + "'",
              iae,
              namesInCreated("'" + key + "'", why),
              fx -> create(fx, Map.of("fine", 1, key, value))));
      String other = scopes[n % scopes.length] + "bad";
      cases.add(
          refused(
              "append: " + bad[0] + " under '" + other + "'",
              iae,
              namesInSession("'" + other + "'", why),
              fx -> append(fx, Map.of("fine", 2, other, value))));
    }
    cases.add(
        refused(
            "create: a value over maxValueBytes",
            iae,
            namesInCreated("'app:big'", "maxValueBytes"),
            fx -> create(fx, Map.of("app:big", large()))));
    cases.add(
        refused(
            "append: a value over maxValueBytes",
            iae,
            namesInSession("'user:big'", "maxValueBytes"),
            fx -> append(fx, Map.of("count", 2, "user:big", large()))));
    cases.add(
        refused(
            "append: an event over maxEventBytes",
            iae,
            namesInSession("maxEventBytes"),
            fx ->
                fx.sessions
                    .appendEvent(
                        fx.session(),
                        Event.builder()
                            .author("user")
                            .content(Contents.user("y".repeat(LIMITS.maxEventBytes())))
                            .actions(EventActions.builder().putState("count", 2).build())
                            .build())
                    .blockingGet()));

    // Values written by a callback or a tool during a Runner turn.
    cases.add(
        turnFails(
            "turn: a callback writes NaN",
            iae,
            names("'score'", "NaN"),
            fx -> fx.turn(callbackWriting("score", Double.NaN))));
    cases.add(
        turnFails(
            "turn: a callback writes a map containing itself",
            iae,
            names("'user:loop'", "cyclic"),
            fx -> fx.turn(callbackWriting("user:loop", cyclic()))));
    cases.add(
        turnFails(
            "turn: a callback writes 1e400",
            iae,
            names("'app:big'", "Infinity"),
            fx -> fx.turn(callbackWriting("app:big", new BigDecimal("1e400")))));
    cases.add(
        turnFails(
            "turn: a tool writes a good key, then an Object",
            ToolErrorResponse.class,
            names("writeThenFail", "'obj'", "java.lang.Object"),
            fx -> fx.turn(callsTool(FunctionTool.create(Tools.class, "writeThenFail")))));
    cases.add(
        turnFails(
            "turn: a tool writes a record Jackson cannot read back",
            ToolErrorResponse.class,
            names("writeRecord", "'job'", "cannot read it back"),
            fx -> fx.turn(callsTool(FunctionTool.create(Tools.class, "writeRecord")))));
    cases.add(
        turnFails(
            "turn: a tool writes a Thread",
            ToolErrorResponse.class,
            names("'worker'", "java.lang.Thread"),
            fx ->
                fx.turn(callsTool(tool("spawn", ctx -> ctx.state().put("worker", new Thread()))))));
    cases.add(
        turnFails(
            "turn: a tool writes a list nested 600 deep",
            ToolErrorResponse.class,
            names("'user:deep'", "nested too deeply"),
            fx ->
                fx.turn(callsTool(tool("dig", ctx -> ctx.state().put("user:deep", nested(600)))))));
    cases.add(
        turnFails(
            "turn: a tool writes a value over maxValueBytes (refused by the store)",
            iae,
            namesInSession("'user:big'", "maxValueBytes"),
            fx -> fx.turn(callsTool(FunctionTool.create(Tools.class, "writeLarge")))));
    cases.add(
        refused( // the user message carrying it is refused: no turn began, nothing is stored
            "turn: the run's state delta holds a bare 'user:'",
            iae,
            namesInSession("'user:'"),
            fx -> fx.turn(answering("hi"), entry("user:", 1))));
    cases.add(
        refused( // the user message carrying it is refused: no turn began, nothing is stored
            "turn: the run's state delta holds NaN",
            iae,
            namesInSession("'rating'", "NaN"),
            fx -> fx.turn(answering("hi"), entry("rating", Double.NaN))));

    // Sessions that are unknown, deleted, or read before another append.
    cases.add(
        refused(
            "append: to an unknown session",
            SessionNotFoundException.class,
            fx -> List.of("'ghost'", "'" + fx.user + "'", "'" + fx.app + "'"),
            fx ->
                fx.sessions
                    .appendEvent(
                        Session.builder("ghost").appName(fx.app).userId(fx.user).build(),
                        event(Map.of("user:x", 1)))
                    .blockingGet()));
    cases.add(
        new Case(
            "append: to a deleted session, through the copy read before",
            SessionNotFoundException.class,
            namesInSession(),
            Stored.NOTHING,
            fx -> {
              fx.kept = fx.session();
              fx.sessions.deleteSession(fx.app, fx.user, fx.sid).blockingAwait();
            },
            fx -> fx.sessions.appendEvent(fx.kept, event(Map.of("user:x", 1))).blockingGet()));
    cases.add(
        new Case(
            "runner: a turn on a deleted session",
            SessionNotFoundException.class,
            namesInSession(),
            Stored.NOTHING,
            fx -> fx.sessions.deleteSession(fx.app, fx.user, fx.sid).blockingAwait(),
            fx -> fx.turn(answering("hi"), Map.of("user:x", 1))));
    cases.add(
        new Case(
            "append: through a stale copy",
            StaleSessionException.class,
            namesInSession("revision 1", "revision 2"),
            Stored.NOTHING,
            fx -> {
              fx.kept = fx.session();
              append(fx, Map.of("count", 2));
            },
            fx ->
                fx.sessions
                    .appendEvent(fx.kept, event(Map.of("count", 3, "user:x", 1)))
                    .blockingGet()));

    // The same event id twice.
    cases.add(
        refused(
            "append: the stored event again",
            iae,
            fx -> List.of("'" + fx.first.id() + "'", "'" + fx.sid + "'", "'" + fx.app + "'"),
            fx -> fx.sessions.appendEvent(fx.session(), fx.first).blockingGet()));
    cases.add(
        refused(
            "append: another event reusing a stored id",
            iae,
            namesInSession("already stored"),
            fx ->
                fx.sessions
                    .appendEvent(
                        fx.session(),
                        event(Map.of("count", 5, "app:x", 1)).toBuilder().id(fx.first.id()).build())
                    .blockingGet()));

    // Templates: a required placeholder that names nothing.
    cases.add(
        turnFails(
            "template: required key missing",
            iae,
            names("'mood'", "'templated'"),
            fx -> fx.turn(answering("You feel {mood}."))));
    cases.add(
        turnFails(
            "template: required user: key missing",
            iae,
            names("'user:nickname'", "'templated'"),
            fx -> fx.turn(answering("Hello {user:nickname}!"))));
    cases.add(
        turnFails(
            "template: required artifact missing",
            iae,
            names("missing.txt", "'templated'"),
            fx -> fx.turn(answering("Read {artifact.missing.txt}"))));

    // The model's mistakes reach the model, not the caller.
    cases.add(
        turnFails(
            "tool: an int argument given \"many\" (the tool does not run)",
            ToolErrorResponse.class,
            names("'repeat'", "'times'", "int", "\"many\""),
            fx -> {
              int before = Tools.REPEATS.get();
              try {
                fx.turn(
                    callsTool(FunctionTool.create(Tools.class, "repeat"), Map.of("times", "many")));
              } finally {
                assertThat(Tools.REPEATS.get()).as("runs of the tool").isEqualTo(before);
              }
            }));
    cases.add(
        turnFails(
            "transfer: to an agent that does not exist",
            ToolErrorResponse.class,
            names("'ghost'", "'router'", "helper"),
            fx -> {
              LlmAgent helper =
                  LlmAgent.builder()
                      .name("helper")
                      .model(ScriptedLlm.answering(r -> ScriptedLlm.textResponse("never")))
                      .build();
              ScriptedLlm llm =
                  ScriptedLlm.builder()
                      .thenFunctionCall(LlmAgent.TRANSFER_TO_AGENT, Map.of("agent_name", "ghost"))
                      .thenText("sorry, staying here")
                      .build();
              fx.turn(LlmAgent.builder().name("router").model(llm).subAgents(helper).build());
            }));
    cases.add(
        turnFails(
            "transfer: a tool's own transferToAgent to an unknown agent fails the step",
            iae,
            names("'nobody'", "'worker'"),
            fx -> fx.turn(callsTool(tool("hand_off", ctx -> ctx.transferToAgent("nobody"))))));

    // Artifact names that leave the session.
    for (String name : List.of("../x", "/etc/passwd", "a\\b", "a//b", "user:")) {
      cases.add(
          refused(
              "artifact: save '" + name + "'",
              iae,
              names("'" + name + "'"),
              fx ->
                  fx.artifacts
                      .saveArtifact(fx.app, fx.user, fx.sid, name, Part.fromText("x"))
                      .blockingGet()));
    }
    cases.add(
        turnFails(
            "artifact: a tool saves '../x'",
            ToolErrorResponse.class,
            names("'saveOutside'", "'../x'"),
            fx -> fx.turn(callsTool(FunctionTool.create(Tools.class, "saveOutside")))));
    return cases;
  }

  static Stream<Arguments> matrix() {
    return Stream.of(Backend.values()).flatMap(b -> cases().stream().map(c -> Arguments.of(c, b)));
  }

  @ParameterizedTest(name = "[{index}] {1}: {0}")
  @MethodSource("matrix")
  void badInput_isRefusedNamingIt_andNothingIsStored(Case c, Backend backend) throws Throwable {
    Fx fx = new Fx(backends.get(backend));
    c.arrange().accept(fx);
    Snapshot before = Snapshot.of(fx);

    Throwable thrown = catchThrowable(() -> c.action().accept(fx));

    assertThat(thrown).as(c.name()).isInstanceOf(c.type());
    for (String part : c.names().apply(fx)) {
      assertThat(thrown.getMessage()).as("message of %s", c.name()).contains(part);
    }
    Snapshot after = Snapshot.of(fx);
    assertThat(after.sessionIds()).as("the user's sessions").isEqualTo(before.sessionIds());
    assertThat(StoredHistory.describe(after.witness()))
        .as("another session of the user (its user: and app: state)")
        .isEqualTo(StoredHistory.describe(before.witness()));
    assertThat(after.artifacts()).as("artifacts").isEqualTo(before.artifacts());
    if (c.stored() == Stored.NOTHING) {
      assertThat(StoredHistory.describe(after.session()))
          .as("the session")
          .isEqualTo(StoredHistory.describe(before.session()));
      return;
    }
    List<Event> added =
        StoredHistory.assertOnlyStatelessEventsAdded(before.session(), after.session());
    if (!(thrown instanceof ToolErrorResponse)) {
      // The invocation failed: its last event says why, naming the same thing.
      Event last = added.get(added.size() - 1);
      assertThat(last.errorCode()).contains("INVALID_ARGUMENT");
      for (String part : c.names().apply(fx)) {
        assertThat(last.errorMessage().orElse("")).contains(part);
      }
    }
  }

  // ---- bad input that is not an error, as documented ----

  /**
   * Unbalanced or doubled braces are not placeholders and stay exactly as written (docs/
   * architecture.md, "Instruction templating"); a valid placeholder next to them is still filled.
   */
  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("unbalancedTemplates")
  void unbalancedBraces_stayLiteral(String template, String rendered) {
    Fx fx = new Fx(backends.get(Backend.MEMORY));
    ScriptedLlm llm = ScriptedLlm.answering(r -> ScriptedLlm.textResponse("ok"));
    LlmAgent agent = LlmAgent.builder().name("templated").model(llm).instruction(template).build();

    fx.turn(agent);

    assertThat(llm.lastRequest().systemInstruction()).contains(rendered);
  }

  static Stream<Arguments> unbalancedTemplates() {
    return Stream.of(
        Arguments.of("About {topic", "About {topic"),
        Arguments.of("About topic}", "About topic}"),
        Arguments.of("About {{x}", "About {{x}"),
        Arguments.of("About {x}}", "About {x}}"),
        Arguments.of("About {{topic}}", "About {{topic}}"),
        Arguments.of("}{topic}{", "}cats{"),
        Arguments.of("{ {topic}", "{ cats"),
        Arguments.of("{topic?", "{topic?"),
        Arguments.of("{", "{"));
  }

  /** A prefix that is not app:, user: or temp: is part of an ordinary session key. */
  @ParameterizedTest
  @EnumSource(Backend.class)
  void unknownLookingPrefixes_areOrdinarySessionKeys(Backend backend) {
    Fx fx = new Fx(backends.get(backend));
    Map<String, Object> delta = new LinkedHashMap<>();
    for (String key : List.of("a:b", "xyz:", "User:name", "APP:x", "temp", "user", ":", "::")) {
      delta.put(key, key.length());
    }

    append(fx, delta);

    Session reread = fx.session();
    assertThat(reread.state()).containsAllEntriesOf(delta);
    Session witness = fx.sessions.getSession(fx.app, fx.user, fx.witness).blockingGet();
    assertThat(witness.state()).doesNotContainKeys(delta.keySet().toArray(String[]::new));
  }

  /**
   * A model answering malformed JSON for an agent with an output schema: the text is stored under
   * the output key and a warning names the agent and the key (docs/architecture.md, "Agents and
   * runner"); the turn succeeds.
   */
  @ParameterizedTest
  @EnumSource(Backend.class)
  void malformedJson_forAnOutputSchema_isStoredAsText_withAWarning(Backend backend) {
    Fx fx = new Fx(backends.get(backend));
    ScriptedLlm llm = ScriptedLlm.builder().thenText("{\"verdict\": \"yes\",").build();
    LlmAgent judge =
        LlmAgent.builder()
            .name("judge")
            .model(llm)
            .outputKey("verdict")
            .outputSchema(
                Schema.builder()
                    .type("OBJECT")
                    .properties(Map.of("verdict", Schema.builder().type("STRING").build()))
                    .build())
            .build();
    ch.qos.logback.classic.Logger logger =
        (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(LlmAgent.class);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> logged =
        new ch.qos.logback.core.read.ListAppender<>();
    logged.start();
    logger.addAppender(logged);
    try {
      fx.turn(judge);
    } finally {
      logger.detachAppender(logged);
    }

    assertThat(fx.session().state()).containsEntry("verdict", "{\"verdict\": \"yes\",");
    assertThat(logged.list)
        .anySatisfy(
            e -> {
              assertThat(e.getLevel()).isEqualTo(ch.qos.logback.classic.Level.WARN);
              assertThat(e.getFormattedMessage()).contains("judge").contains("verdict");
            });
  }

  @Test
  void theMatrixHasAtLeastFortyCases() {
    assertThat(cases()).hasSizeGreaterThanOrEqualTo(40);
    assertThat(cases().stream().map(Case::name).distinct()).hasSize(cases().size());
  }
}
