package dev.adk4j.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.plugins.BasePlugin;
import dev.adk4j.runner.InvocationFailedException;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Runs eval cases against agents and scores them. Each case runs {@code runs} times, each run in a
 * session of its own created from the case's {@code session_input} on the given {@link
 * BaseSessionService}; each expected invocation's user content is sent in turn, the actual
 * invocation is read from the events, the session's state is read after each invocation for the
 * case's state checks, and every configured metric is scored per run, then averaged over the runs
 * (with the spread). Operational metrics (tool calls, model calls, tokens, seconds per invocation)
 * are always reported.
 *
 * <p>A case names its app in {@code session_input.app_name}; an app that was not registered makes
 * the case ERRORED, as does an agent that fails. Optionally every model response and tool result is
 * recorded to a file ({@link Builder#recordTo}) and replayed later with no model and no tools
 * ({@link Builder#replayFrom}).
 *
 * <p>Thread-safe for sequential use per call; cases of one call run one after the other.
 */
public final class EvalRunner {
  private final Map<String, BaseAgent> apps;
  private final BaseSessionService sessions;
  private final EvalConfig config;
  private final int runs;
  private final @Nullable BaseLlm judge;
  private final @Nullable Path recordTo;
  private final @Nullable Path replayFrom;
  private final String userId;
  private final @Nullable String sessionIdPrefix;

  private EvalRunner(Builder b) {
    if (b.apps.isEmpty()) {
      throw new IllegalStateException("EvalRunner needs at least one app (Builder.app)");
    }
    this.apps = new LinkedHashMap<>(b.apps);
    this.sessions = Objects.requireNonNull(b.sessions, "sessionService");
    this.config = b.config;
    this.runs = b.runs;
    this.judge = b.judge;
    this.recordTo = b.recordTo;
    this.replayFrom = b.replayFrom;
    this.userId = b.userId;
    this.sessionIdPrefix = b.sessionIdPrefix;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The configuration of an {@link EvalRunner}. */
  public static final class Builder {
    private final Map<String, BaseAgent> apps = new LinkedHashMap<>();
    private @Nullable BaseSessionService sessions;
    private EvalConfig config = EvalConfig.defaults();
    private int runs = 1;
    private @Nullable BaseLlm judge;
    private @Nullable Path recordTo;
    private @Nullable Path replayFrom;
    private String userId = "eval_user";
    private @Nullable String sessionIdPrefix;

    private Builder() {}

    /**
     * Names the runs' sessions {@code prefix} and a random UUID, so that they can be told from
     * others (adk-server leaves them out of its session lists, as ADK's server does with its {@code
     * ___eval___session___} prefix); default: ids the session service chooses.
     */
    public Builder sessionIdPrefix(@Nullable String prefix) {
      this.sessionIdPrefix = prefix;
      return this;
    }

    /**
     * Registers an agent under an app name; a case runs the app its {@code session_input.app_name}
     * names, a case without one the first app registered.
     */
    public Builder app(String appName, BaseAgent agent) {
      if (appName.isBlank()) {
        throw new IllegalArgumentException("appName is blank");
      }
      apps.put(appName, Objects.requireNonNull(agent, "agent"));
      return this;
    }

    /** Where the runs' sessions live (required). */
    public Builder sessionService(BaseSessionService sessions) {
      this.sessions = Objects.requireNonNull(sessions, "sessions");
      return this;
    }

    /** The metrics and thresholds; default {@link EvalConfig#defaults()}. */
    public Builder config(EvalConfig config) {
      this.config = Objects.requireNonNull(config, "config");
      return this;
    }

    /** How many times each case runs, each in a fresh session; default 1. */
    public Builder runs(int runs) {
      if (runs < 1) {
        throw new IllegalArgumentException("runs must be >= 1, is " + runs);
      }
      this.runs = runs;
      return this;
    }

    /** The model that judges the model-judged metrics (any {@link BaseLlm}). */
    public Builder judge(@Nullable BaseLlm judge) {
      this.judge = judge;
      return this;
    }

    /** Records every model response and tool result of every run to {@code file}. */
    public Builder recordTo(@Nullable Path file) {
      this.recordTo = file;
      return this;
    }

    /** Replays the model responses and tool results recorded in {@code file}: no model runs. */
    public Builder replayFrom(@Nullable Path file) {
      this.replayFrom = file;
      return this;
    }

    /** The user of cases without {@code session_input}; default {@code eval_user}. */
    public Builder userId(String userId) {
      this.userId = Objects.requireNonNull(userId, "userId");
      return this;
    }

    public EvalRunner build() {
      if (recordTo != null && replayFrom != null) {
        throw new IllegalStateException("recordTo and replayFrom exclude each other");
      }
      return new EvalRunner(this);
    }
  }

  /** Runs every case of {@code set}. */
  public EvalSetResult run(EvalSet set) {
    JsonNode replay = replayFrom == null ? null : Recording.read(replayFrom);
    Recording recording = recordTo == null ? null : new Recording();
    List<EvalCaseResult> results = new ArrayList<>();
    for (EvalCase c : set.cases()) {
      results.add(runCase(set, c, replay, recording));
    }
    if (recording != null && recordTo != null) {
      recording.write(recordTo, set.evalSetId());
    }
    return new EvalSetResult(
        set.evalSetId() + "_" + UUID.randomUUID().toString().substring(0, 8),
        set.evalSetId(),
        results,
        System.currentTimeMillis() / 1000.0);
  }

  /** Runs one case of {@code set}. */
  public EvalCaseResult run(EvalSet set, EvalCase evalCase) {
    JsonNode replay = replayFrom == null ? null : Recording.read(replayFrom);
    Recording recording = recordTo == null ? null : new Recording();
    EvalCaseResult r = runCase(set, evalCase, replay, recording);
    if (recording != null && recordTo != null) {
      recording.write(recordTo, set.evalSetId());
    }
    return r;
  }

  /** What one run produced. */
  private static final class RunData {
    final List<Invocation> actual = new ArrayList<>();
    final List<Double> durations = new ArrayList<>();
    final List<Double> modelCalls = new ArrayList<>();
    final List<@Nullable Double> tokens = new ArrayList<>();
    final List<Double> stateScores = new ArrayList<>();
    final List<String> stateFailures = new ArrayList<>();
    String sessionId = "";
    String userId = "";
  }

  private EvalCaseResult runCase(
      EvalSet set, EvalCase c, @Nullable JsonNode replay, @Nullable Recording recording) {
    String app = c.sessionInput().map(SessionInput::appName).filter(s -> !s.isEmpty()).orElse(null);
    if (app == null) {
      app = apps.keySet().iterator().next();
    }
    BaseAgent agent = apps.get(app);
    if (agent == null) {
      return errored(
          set,
          c,
          "case "
              + c.evalId()
              + " names app "
              + app
              + ", which is not registered (apps: "
              + apps.keySet()
              + ")",
          List.of());
    }
    List<RunData> done = new ArrayList<>();
    for (int r = 0; r < runs; r++) {
      List<BasePlugin> plugins = new ArrayList<>();
      Recording.Recorder recorder = null;
      if (recording != null) {
        recorder = new Recording.Recorder();
        plugins.add(recorder);
      }
      if (replay != null) {
        JsonNode run = Recording.run(replay, c.evalId(), r);
        if (run == null) {
          return errored(
              set, c, "the recording has no run " + (r + 1) + " of case " + c.evalId(), done);
        }
        plugins.add(new Recording.Replayer("case " + c.evalId() + " run " + (r + 1), run));
      }
      RunData data;
      try {
        data = runOnce(c, app, agent, plugins, r);
      } catch (RuntimeException e) {
        return errored(
            set,
            c,
            "run " + (r + 1) + " of case " + c.evalId() + " failed: " + rootMessage(e),
            done);
      }
      if (recorder != null && recording != null) {
        recording.add(c.evalId(), recorder.run);
      }
      done.add(data);
    }
    return score(set, c, done);
  }

  private RunData runOnce(
      EvalCase c, String app, BaseAgent agent, List<BasePlugin> plugins, int run) {
    Runner runner =
        Runner.builder()
            .agent(agent)
            .appName(app)
            .sessionService(sessions)
            .plugins(plugins)
            .build();
    RunData d = new RunData();
    d.userId = c.sessionInput().map(SessionInput::userId).filter(s -> !s.isEmpty()).orElse(userId);
    if (run > 0) {
      // user: state is shared by a user's sessions: later runs get users of their own, so that
      // no run sees what an earlier one wrote
      d.userId = d.userId + "__run" + (run + 1);
    }
    Map<String, Object> initial =
        new HashMap<>(c.sessionInput().map(SessionInput::state).orElse(Map.of()));
    String sessionId = sessionIdPrefix == null ? null : sessionIdPrefix + UUID.randomUUID();
    Session session = sessions.createSession(app, d.userId, initial, sessionId).blockingGet();
    d.sessionId = session.id();
    List<Invocation> conversation = c.conversation();
    for (int i = 0; i < conversation.size(); i++) {
      Invocation expected = conversation.get(i);
      long t0 = System.nanoTime();
      List<Event> events =
          runner
              .runAsync(d.userId, d.sessionId, expected.userContent(), RunConfig.builder().build())
              .toList()
              .blockingGet();
      InvocationFailedException.throwIfFailed(events); // the case fails with its invocation
      double seconds = (System.nanoTime() - t0) / 1e9;
      d.durations.add(seconds);
      d.actual.add(actual(expected, events, seconds, d));
      List<StateExpectation> checks = new ArrayList<>();
      for (StateExpectation s : c.stateChecks()) {
        if (s.invocationIndex() == i) {
          checks.add(s);
        }
      }
      if (!checks.isEmpty()) {
        Session now =
            sessions.getSession(app, d.userId, d.sessionId, Optional.empty()).blockingGet();
        if (now == null) {
          throw new IllegalStateException("session " + d.sessionId + " vanished during the run");
        }
        for (StateExpectation s : checks) {
          List<String> diff = StateDiff.diff(s, now.state(), events);
          d.stateScores.add(diff.isEmpty() ? 1.0 : 0.0);
          for (String line : diff) {
            d.stateFailures.add("invocation " + (i + 1) + " state: " + line);
          }
        }
      }
    }
    return d;
  }

  private static Invocation actual(
      Invocation expected, List<Event> events, double seconds, RunData d) {
    List<FunctionCall> calls = new ArrayList<>();
    List<FunctionResponse> responses = new ArrayList<>();
    Content finalResponse = null;
    String invocationId = "";
    int modelCalls = 0;
    Double tokens = null;
    for (Event e : events) {
      if (e.partial().orElse(false)) {
        continue;
      }
      if (e.invocationId() != null) {
        invocationId = e.invocationId();
      }
      calls.addAll(e.functionCalls());
      responses.addAll(e.functionResponses());
      boolean fromModel =
          e.usageMetadata().isPresent()
              || (e.content().flatMap(Content::role).orElse("").equals("model")
                  && !"user".equals(e.author()));
      if (fromModel) {
        modelCalls++;
      }
      if (e.usageMetadata().isPresent()) {
        Double t = tokens(e.usageMetadata().get());
        if (t != null) {
          tokens = (tokens == null ? 0 : tokens) + t;
        }
      }
      if (e.finalResponse() && e.content().isPresent() && !"user".equals(e.author())) {
        finalResponse = e.content().get();
      }
    }
    d.modelCalls.add((double) modelCalls);
    d.tokens.add(tokens);
    return Invocation.of(invocationId, expected.userContent(), finalResponse, calls, responses)
        .with("duration", Nodes.F.numberNode(seconds))
        .with("inference_call_count", Nodes.F.numberNode(modelCalls));
  }

  private static @Nullable Double tokens(GenerateContentResponseUsageMetadata u) {
    int in = u.promptTokenCount().orElse(0) + u.toolUsePromptTokenCount().orElse(0);
    int out = u.candidatesTokenCount().orElse(0) + u.thoughtsTokenCount().orElse(0);
    boolean any =
        u.promptTokenCount().isPresent()
            || u.toolUsePromptTokenCount().isPresent()
            || u.candidatesTokenCount().isPresent()
            || u.thoughtsTokenCount().isPresent();
    if (any) {
      return (double) (in + out);
    }
    return u.totalTokenCount().map(Integer::doubleValue).orElse(null);
  }

  private EvalCaseResult score(EvalSet set, EvalCase c, List<RunData> done) {
    List<MetricResult> metrics = new ArrayList<>();
    List<Map<String, List<@Nullable Double>>> perInvocation = new ArrayList<>();
    done.forEach(x -> perInvocation.add(new LinkedHashMap<>()));
    List<String> failures = new ArrayList<>();
    String caseError = null;
    for (EvalConfig.Criterion k : config.criteria().values()) {
      List<@Nullable Double> runScores = new ArrayList<>();
      String error = null;
      for (int r = 0; r < done.size(); r++) {
        RunData d = done.get(r);
        List<@Nullable Double> scores;
        try {
          scores = scores(k, c, d);
        } catch (Judge.JudgeException e) {
          error = e.getMessage();
          scores = new ArrayList<>();
        }
        perInvocation.get(r).put(k.metricName(), scores);
        runScores.add(meanOf(scores));
        Double s = meanOf(scores);
        if (error == null && s != null && s < k.threshold()) {
          failures.addAll(describe(k, c, d, r, done.size()));
        }
      }
      MetricResult m = MetricResult.of(k.metricName(), k.threshold(), runScores, error);
      if (error != null && caseError == null) {
        caseError = k.metricName() + ": " + error;
      }
      metrics.add(m);
    }
    if (!c.stateChecks().isEmpty()) {
      List<@Nullable Double> runScores = new ArrayList<>();
      for (int r = 0; r < done.size(); r++) {
        RunData d = done.get(r);
        runScores.add(EvalMetrics.mean(d.stateScores));
        for (String f : d.stateFailures) {
          failures.add(prefix(r, done.size()) + f);
        }
      }
      metrics.add(MetricResult.of(EvalMetrics.STATE_MATCH, 1.0, runScores, null));
    }
    metrics.add(
        operational(EvalMetrics.TOOL_CALL_COUNT_V1, done, perInvocation, d -> toolCounts(d)));
    metrics.add(
        operational(EvalMetrics.INFERENCE_CALL_COUNT_V1, done, perInvocation, d -> d.modelCalls));
    metrics.add(operational(EvalMetrics.TOKEN_USAGE_V1, done, perInvocation, d -> d.tokens));
    metrics.add(operational(EvalMetrics.DURATION_V1, done, perInvocation, d -> d.durations));

    List<EvalCaseResult.Run> runList = new ArrayList<>();
    for (int r = 0; r < done.size(); r++) {
      RunData d = done.get(r);
      runList.add(new EvalCaseResult.Run(d.sessionId, d.userId, d.actual, perInvocation.get(r)));
    }
    EvalStatus status;
    if (caseError != null) {
      status = EvalStatus.ERRORED;
    } else if (metrics.stream().anyMatch(m -> m.status() == EvalStatus.FAILED)) {
      status = EvalStatus.FAILED;
    } else {
      status = EvalStatus.PASSED;
    }
    return new EvalCaseResult(
        set.evalSetId(), c.evalId(), status, metrics, runList, failures, caseError);
  }

  private interface Values {
    List<@Nullable Double> of(RunData d);
  }

  private static MetricResult operational(
      String name,
      List<RunData> done,
      List<Map<String, List<@Nullable Double>>> perInvocation,
      Values values) {
    List<@Nullable Double> runScores = new ArrayList<>();
    for (int r = 0; r < done.size(); r++) {
      List<@Nullable Double> v = values.of(done.get(r));
      perInvocation.get(r).put(name, v);
      runScores.add(meanOf(v));
    }
    return MetricResult.of(name, null, runScores, null);
  }

  private static List<@Nullable Double> toolCounts(RunData d) {
    List<@Nullable Double> out = new ArrayList<>();
    d.actual.forEach(i -> out.add((double) i.toolUses().size()));
    return out;
  }

  private static @Nullable Double meanOf(List<@Nullable Double> values) {
    List<Double> present = new ArrayList<>();
    for (Double v : values) {
      if (v != null) {
        present.add(v);
      }
    }
    return EvalMetrics.mean(present);
  }

  private List<@Nullable Double> scores(EvalConfig.Criterion k, EvalCase c, RunData d) {
    List<Invocation> expected = c.conversation();
    List<@Nullable Double> out = new ArrayList<>();
    switch (k.metricName()) {
      case EvalMetrics.TOOL_TRAJECTORY_AVG_SCORE:
        out.addAll(
            EvalMetrics.toolTrajectoryScores(d.actual, expected, k.matchType(), k.ignoreArgs()));
        return out;
      case EvalMetrics.RESPONSE_MATCH_SCORE:
        out.addAll(EvalMetrics.responseMatchScores(d.actual, expected));
        return out;
      case EvalMetrics.FINAL_RESPONSE_MATCH_V2:
        {
          Judge j = judge();
          for (int i = 0; i < Math.min(d.actual.size(), expected.size()); i++) {
            out.add(
                j.finalResponseMatch(
                    expected.get(i).userText(),
                    expected.get(i).finalResponseText(),
                    d.actual.get(i).finalResponseText(),
                    k.numSamples()));
          }
          return out;
        }
      case EvalMetrics.RUBRIC_BASED_FINAL_RESPONSE_QUALITY_V1:
        {
          for (int i = 0; i < Math.min(d.actual.size(), expected.size()); i++) {
            List<Rubric> rubrics = new ArrayList<>(k.rubrics());
            rubrics.addAll(c.rubrics());
            rubrics.addAll(expected.get(i).rubrics());
            if (rubrics.isEmpty()) {
              out.add(null);
              continue;
            }
            out.add(
                judge()
                    .rubricScore(
                        expected.get(i).userText(),
                        d.actual.get(i).finalResponseText(),
                        rubrics,
                        k.numSamples()));
          }
          return out;
        }
      default:
        throw new IllegalStateException("metric " + k.metricName());
    }
  }

  private Judge judge() {
    if (judge == null) {
      throw new Judge.JudgeException("no judge model is configured (EvalRunner.Builder.judge)");
    }
    return new Judge(judge);
  }

  private static String prefix(int run, int runs) {
    return runs > 1 ? "run " + (run + 1) + ": " : "";
  }

  private static List<String> describe(
      EvalConfig.Criterion k, EvalCase c, RunData d, int r, int runs) {
    List<String> out = new ArrayList<>();
    List<Invocation> expected = c.conversation();
    for (int i = 0; i < Math.min(d.actual.size(), expected.size()); i++) {
      Invocation a = d.actual.get(i);
      Invocation e = expected.get(i);
      String p = prefix(r, runs) + "invocation " + (i + 1) + " ";
      if (k.metricName().equals(EvalMetrics.TOOL_TRAJECTORY_AVG_SCORE)
          && !EvalMetrics.toolCallsMatch(
              a.toolUses(), e.toolUses(), k.matchType(), k.ignoreArgs())) {
        out.add(
            p
                + "trajectory ("
                + k.matchType()
                + ")\n  expected: "
                + calls(e.toolUses())
                + "\n  actual:   "
                + calls(a.toolUses()));
      }
      if (k.metricName().equals(EvalMetrics.RESPONSE_MATCH_SCORE)
          || k.metricName().equals(EvalMetrics.FINAL_RESPONSE_MATCH_V2)
          || k.metricName().equals(EvalMetrics.RUBRIC_BASED_FINAL_RESPONSE_QUALITY_V1)) {
        if (!a.finalResponseText().equals(e.finalResponseText())) {
          out.add(
              p
                  + "response ("
                  + k.metricName()
                  + ")\n  expected: "
                  + quote(e.finalResponseText())
                  + "\n  actual:   "
                  + quote(a.finalResponseText()));
        }
      }
    }
    return out;
  }

  private static String calls(List<FunctionCall> calls) {
    List<String> out = new ArrayList<>();
    for (FunctionCall fc : calls) {
      out.add(
          fc.name().orElse("?") + Json.toJson(new java.util.TreeMap<>(fc.args().orElse(Map.of()))));
    }
    return out.toString();
  }

  private static String quote(String s) {
    return "\"" + s.replace("\n", "\\n") + "\"";
  }

  private static String rootMessage(Throwable t) {
    Throwable c = t;
    while (c.getCause() != null && c.getCause() != c) {
      c = c.getCause();
    }
    return c.getClass().getSimpleName() + ": " + c.getMessage();
  }

  private EvalCaseResult errored(EvalSet set, EvalCase c, String error, List<RunData> done) {
    return new EvalCaseResult(
        set.evalSetId(), c.evalId(), EvalStatus.ERRORED, List.of(), List.of(), List.of(), error);
  }
}
