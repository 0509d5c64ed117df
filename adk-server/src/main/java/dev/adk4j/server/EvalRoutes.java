package dev.adk4j.server;

import static dev.adk4j.server.Exchanges.methodNotAllowed;
import static dev.adk4j.server.Exchanges.readBody;
import static dev.adk4j.server.Exchanges.requireMethod;
import static dev.adk4j.server.Exchanges.sendJson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.adk4j.eval.EvalCase;
import dev.adk4j.eval.EvalConfig;
import dev.adk4j.eval.EvalFormatException;
import dev.adk4j.eval.EvalMetrics;
import dev.adk4j.eval.EvalRunner;
import dev.adk4j.eval.EvalSet;
import dev.adk4j.eval.EvalSetResult;
import dev.adk4j.eval.Invocation;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The evaluation endpoints under {@code /apps/{app}/}, as ADK for Python's server has them and the
 * dev UI's eval tab calls them, backed by {@code adk-eval} ({@link EvalSet}, {@link EvalRunner}):
 * ADK's older paths ({@code eval_sets}, {@code eval_results}, {@code add_session}, {@code evals},
 * {@code run_eval}) and its current ones ({@code eval-sets}, {@code eval-results}, {@code
 * add-session}, {@code eval-cases}, {@code run}), and {@code metrics-info}.
 *
 * <p>Eval sets and results are kept in an {@link EvalStore} as the JSON of ADK's files
 * (snake_case); responses are ADK's API models, which pydantic writes by alias (camelCase), data
 * maps ({@code args}, {@code response}, {@code state}) as they are. An eval run's sessions live in
 * the server's session service, named {@value #EVAL_SESSION_PREFIX}... as ADK names them, and are
 * left out of session lists.
 */
final class EvalRoutes {
  /** ADK's prefix of the sessions an eval run creates. */
  static final String EVAL_SESSION_PREFIX = "___eval___session___";

  /** ADK's rule for eval set ids (its local eval sets manager refuses others). */
  private static final Pattern EVAL_SET_ID = Pattern.compile("[a-zA-Z0-9_]+");

  /** The metrics a run may ask for without a judge model. */
  private static final List<String[]> METRICS =
      List.of(
          new String[] {
            EvalMetrics.TOOL_TRAJECTORY_AVG_SCORE,
            "Compares the tool calls of each invocation with the expected ones (exact match); the"
                + " score is the share of invocations whose calls match."
          },
          new String[] {
            EvalMetrics.RESPONSE_MATCH_SCORE,
            "ROUGE-1 F-measure of the final response against the expected one, as ADK computes"
                + " it."
          });

  /** The metrics a judge model scores: a run may ask for them when the server has a judge. */
  private static final List<String[]> JUDGED_METRICS =
      List.of(
          new String[] {
            EvalMetrics.FINAL_RESPONSE_MATCH_V2,
            "A judge model says whether the final response conveys the expected one; the score is"
                + " the share of invocations judged valid."
          },
          new String[] {
            EvalMetrics.RUBRIC_BASED_FINAL_RESPONSE_QUALITY_V1,
            "A judge model checks the final response against the rubrics (the metric's, the"
                + " case's, the invocation's); the score is the share of rubrics met."
          });

  private final EvalStore store;
  private final BaseSessionService sessions;
  private final SessionRoutes sessionRoutes;
  private final ServerConfig config;
  private final EvalJudges judges;
  private final Object writes = new Object();

  EvalRoutes(
      EvalStore store,
      BaseSessionService sessions,
      SessionRoutes sessionRoutes,
      ServerConfig config,
      EvalJudges judges) {
    this.store = store;
    this.sessions = sessions;
    this.sessionRoutes = sessionRoutes;
    this.config = config;
    this.judges = judges;
  }

  static boolean isEvalPath(String s) {
    return s.equals("eval_sets")
        || s.equals("eval-sets")
        || s.equals("eval_results")
        || s.equals("eval-results")
        || s.equals("metrics-info");
  }

  /**
   * Dispatches {@code rest}, the path after {@code /apps/{app}/}, whose first segment {@link
   * #isEvalPath} accepted.
   */
  void handle(HttpExchange ex, String method, String app, Runner runner, List<String> rest)
      throws IOException {
    String kind = rest.get(0);
    int n = rest.size();
    boolean current = kind.contains("-"); // ADK's current paths; the older ones use '_'
    switch (kind) {
      case "metrics-info" -> {
        if (n != 1) {
          throw notFound(method, app, rest);
        }
        requireMethod(method, "GET");
        sendJson(ex, 200, metricsInfo(judges.any()));
      }
      case "eval_results", "eval-results" -> {
        if (n == 1) {
          requireMethod(method, "GET");
          JsonNode ids = Wire.strings(store.evalResultIds(app));
          sendJson(ex, 200, current ? wrap("evalResultIds", ids) : ids);
        } else if (n == 2) {
          requireMethod(method, "GET");
          String json =
              store
                  .evalResult(app, rest.get(1))
                  .orElseThrow(
                      () ->
                          HttpError.notFound(
                              "eval result '" + rest.get(1) + "' not found in app '" + app + "'"));
          sendJson(ex, 200, camel(parse(json)));
        } else {
          throw notFound(method, app, rest);
        }
      }
      default -> sets(ex, method, app, runner, rest, current);
    }
  }

  private void sets(
      HttpExchange ex, String method, String app, Runner runner, List<String> rest, boolean current)
      throws IOException {
    int n = rest.size();
    if (n == 1) {
      switch (method) {
        case "GET" -> {
          JsonNode ids = Wire.strings(store.evalSetIds(app));
          sendJson(ex, 200, current ? wrap("evalSetIds", ids) : ids);
        }
        case "POST" -> {
          if (!current) {
            throw notFound(method, app, rest);
          }
          ObjectNode body = body(ex);
          ObjectNode set = Wire.object(Wire.field(body, "evalSet", "eval_set"), "'evalSet'");
          if (set == null) {
            throw HttpError.invalid("missing", "'eval_set' is required", "body", "eval_set");
          }
          String id = Wire.requiredText(set, "evalSetId", "eval_set_id");
          sendJson(ex, 200, camel(parse(create(app, id).toJson())));
        }
        default -> throw methodNotAllowed(method, current ? "GET, POST" : "GET");
      }
      return;
    }
    String setId = Wire.id(rest.get(1), "evalSetId", "path");
    if (n == 2) {
      switch (method) {
        case "GET" -> sendJson(ex, 200, camel(parse(requireSet(app, setId, 404).toJson())));
        case "POST" -> {
          // ADK's older creation by id: no body, answers null
          create(app, setId);
          sendJson(ex, 200, NullNode.getInstance());
        }
        case "DELETE" -> {
          store.deleteEvalSet(app, setId);
          sendJson(ex, 200, NullNode.getInstance());
        }
        default -> throw methodNotAllowed(method, "GET, POST, DELETE");
      }
      return;
    }
    String op = rest.get(2);
    if (n == 3 && (op.equals("add_session") || op.equals("add-session"))) {
      requireMethod(method, "POST");
      addSession(app, setId, body(ex));
      sendJson(ex, 200, NullNode.getInstance());
      return;
    }
    if (n == 3 && (op.equals("run_eval") || op.equals("run"))) {
      requireMethod(method, "POST");
      ArrayNode results = run(app, runner, setId, body(ex));
      sendJson(ex, 200, op.equals("run") ? wrap("runEvalResults", results) : results);
      return;
    }
    if (n == 3 && op.equals("evals")) {
      requireMethod(method, "GET");
      List<String> ids = new ArrayList<>();
      requireSet(app, setId, 400).cases().forEach(c -> ids.add(c.evalId()));
      ids.sort(null);
      sendJson(ex, 200, Wire.strings(ids));
      return;
    }
    if (n == 4 && (op.equals("evals") || op.equals("eval-cases"))) {
      String caseId = Wire.id(rest.get(3), "evalCaseId", "path");
      switch (method) {
        case "GET" -> {
          EvalCase c =
              store
                  .evalSet(app, setId)
                  .map(json -> EvalSet.parse(json, "stored eval set " + setId, setId))
                  .flatMap(s -> s.find(caseId))
                  .orElseThrow(() -> caseNotFound(setId, caseId));
          sendJson(ex, 200, camel(parse(c.toJson())));
        }
        case "PUT" -> {
          updateCase(app, setId, caseId, body(ex));
          sendJson(ex, 200, NullNode.getInstance());
        }
        case "DELETE" -> {
          synchronized (writes) {
            EvalSet set = requireSet(app, setId, 404);
            if (set.find(caseId).isEmpty()) {
              throw caseNotFound(setId, caseId);
            }
            store.putEvalSet(app, setId, set.withoutCase(caseId).toJson(), true);
          }
          sendJson(ex, 200, NullNode.getInstance());
        }
        default -> throw methodNotAllowed(method, "GET, PUT, DELETE");
      }
      return;
    }
    throw notFound(method, app, rest);
  }

  // ---------------------------------------------------------------------------------------------
  // operations

  private EvalSet create(String app, String id) {
    if (!EVAL_SET_ID.matcher(id).matches()) {
      throw HttpError.badRequest(
          "Invalid eval set id '"
              + id
              + "': only letters, digits and underscores are allowed (ADK's rule)");
    }
    EvalSet set = EvalSet.of(id, List.of());
    if (!store.putEvalSet(app, id, set.toJson(), false)) {
      throw HttpError.badRequest("EvalSet " + id + " already exists in app '" + app + "'");
    }
    return set;
  }

  /** ADK's {@code add_session}: the session's conversation becomes a new case of the set. */
  private void addSession(String app, String setId, @Nullable ObjectNode body) {
    String evalId = Wire.requiredText(body, "evalId", "eval_id");
    String sessionId = Wire.requiredText(body, "sessionId", "session_id");
    String userId = Wire.requiredText(body, "userId", "user_id");
    Session session = sessionRoutes.requireSession(app, userId, sessionId, -1);
    EvalCase c = EvalCase.fromSession(evalId, session);
    synchronized (writes) {
      EvalSet set = requireSet(app, setId, 400);
      if (set.find(evalId).isPresent()) {
        throw HttpError.badRequest(
            "Eval id `" + evalId + "` already exists in `" + setId + "` eval set.");
      }
      store.putEvalSet(app, setId, set.withCase(c).toJson(), true);
    }
  }

  /**
   * ADK's update of a case ({@code PUT}): the body is the case (the dev UI sends {@code evalId},
   * {@code conversation}, {@code sessionInput}, {@code creationTimestamp}); fields of the stored
   * case the body does not name (rubrics, adk4j's state checks) are kept.
   */
  private void updateCase(String app, String setId, String caseId, @Nullable ObjectNode body) {
    if (body == null) {
      throw HttpError.invalid("missing", "the eval case is required", "body");
    }
    JsonNode bodyId = Wire.field(body, "evalId", "eval_id");
    if (bodyId != null && !bodyId.asText().isEmpty() && !bodyId.asText().equals(caseId)) {
      throw HttpError.badRequest("Eval id in EvalCase should match the eval id in the API route.");
    }
    synchronized (writes) {
      EvalSet set = requireSet(app, setId, 404);
      EvalCase stored = set.find(caseId).orElseThrow(() -> caseNotFound(setId, caseId));
      ObjectNode merged = body.deepCopy();
      merged.remove("evalId");
      merged.put("eval_id", caseId);
      ObjectNode old = (ObjectNode) parse(stored.toJson());
      for (Iterator<Map.Entry<String, JsonNode>> it = old.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> f = it.next();
        if (!merged.has(f.getKey()) && !merged.has(camel(f.getKey()))) {
          merged.set(f.getKey(), f.getValue());
        }
      }
      ObjectNode wrapper = Wire.MAPPER.createObjectNode();
      wrapper.put("eval_set_id", setId);
      wrapper.putArray("eval_cases").add(merged);
      EvalCase updated;
      try {
        updated = EvalSet.parse(wrapper.toString(), "eval case " + caseId, setId).cases().get(0);
      } catch (EvalFormatException e) {
        throw HttpError.invalid(
            "value_error", String.valueOf(e.getMessage()).replace("$.eval_cases[0]", "$"), "body");
      }
      store.putEvalSet(app, setId, set.withCase(updated).toJson(), true);
    }
  }

  /**
   * Runs the chosen cases (all when none is named) with the metrics asked for, on the server's
   * session service, stores the result and answers ADK's {@code RunEvalResult} list.
   */
  private ArrayNode run(String app, Runner runner, String setId, @Nullable ObjectNode body) {
    EvalSet set = requireSet(app, setId, 400);
    Set<String> ids = new LinkedHashSet<>();
    ids.addAll(strings(Wire.field(body, "evalCaseIds", "eval_case_ids"), "evalCaseIds"));
    ids.addAll(strings(Wire.field(body, "evalIds", "eval_ids"), "evalIds"));
    List<EvalCase> chosen = new ArrayList<>();
    if (ids.isEmpty()) {
      chosen.addAll(set.cases());
    } else {
      for (String id : ids) {
        chosen.add(set.find(id).orElseThrow(() -> caseNotFound(setId, id)));
      }
    }
    Map<String, @Nullable String> judgeModels = new java.util.LinkedHashMap<>();
    EvalConfig evalConfig = metrics(Wire.field(body, "evalMetrics", "eval_metrics"), judgeModels);
    EvalRunner evalRunner =
        EvalRunner.builder()
            .app(app, runner.agent())
            .sessionService(sessions)
            .config(evalConfig)
            .judge(judges.choose(judgeModels))
            .sessionIdPrefix(EVAL_SESSION_PREFIX)
            .build();
    EvalSetResult raw = evalRunner.run(EvalSet.of(setId, chosen));
    String resultId = app + "_" + setId + "_" + BigDecimal.valueOf(raw.createdAt()).toPlainString();
    EvalSetResult result =
        new EvalSetResult(resultId, raw.evalSetId(), raw.cases(), raw.createdAt());
    ObjectNode json = (ObjectNode) parse(result.toJson());
    Set<String> asked = new LinkedHashSet<>();
    asked.addAll(evalConfig.criteria().keySet());
    ArrayNode out = Wire.MAPPER.createArrayNode();
    for (JsonNode entry : json.path("eval_case_results")) {
      ObjectNode e = (ObjectNode) entry;
      // the metrics the run asked for, as ADK answers (adk-eval adds its operational ones)
      keepMetrics(e.path("overall_eval_metric_results"), asked);
      for (JsonNode per : e.path("eval_metric_result_per_invocation")) {
        keepMetrics(per.path("eval_metric_results"), asked);
      }
      Optional<EvalCase> c = set.find(e.path("eval_id").asText());
      int i = 0;
      for (JsonNode per : e.path("eval_metric_result_per_invocation")) {
        // ADK writes the expected invocation beside the actual one; the dev UI shows both
        if (c.isPresent() && i < c.get().conversation().size()) {
          Invocation expected = c.get().conversation().get(i);
          ((ObjectNode) per).set("expected_invocation", parse(expected.toJson()));
        }
        i++;
      }
      ObjectNode r = (ObjectNode) camel(e);
      r.put("evalSetFile", setId);
      out.add(r);
    }
    store.putEvalResult(
        app, resultId, setId, json.toPrettyString(), (long) (raw.createdAt() * 1000));
    return out;
  }

  private static void keepMetrics(JsonNode list, Set<String> names) {
    if (list instanceof ArrayNode a) {
      for (Iterator<JsonNode> it = a.elements(); it.hasNext(); ) {
        if (!names.contains(it.next().path("metric_name").asText())) {
          it.remove();
        }
      }
    }
  }

  /**
   * The run's config from ADK's {@code eval_metrics}: {@code [{metricName, threshold, criterion?,
   * judgeModelOptions?}]}. A {@code criterion} (ADK's, such as {@code {threshold, matchType}} or
   * {@code {threshold, judgeModelOptions: {judgeModel, numSamples}, rubrics}}) is read as a test
   * config's criterion; {@code judgeModels} gets each judged metric's {@code judge_model}, null
   * where it names none.
   */
  private static EvalConfig metrics(
      @Nullable JsonNode node, Map<String, @Nullable String> judgeModels) {
    if (node == null) {
      throw HttpError.invalid("missing", "'evalMetrics' is required", "body", "evalMetrics");
    }
    if (!node.isArray()) {
      throw HttpError.invalid(
          "list_type",
          "'evalMetrics' must be a list, got " + Wire.kind(node),
          "body",
          "evalMetrics");
    }
    ObjectNode criteria = Wire.MAPPER.createObjectNode();
    int i = 0;
    for (JsonNode m : node) {
      int at = i++;
      if (!m.isObject()) {
        throw HttpError.invalid(
            "model_type",
            "'evalMetrics[" + at + "]' must be an object, got " + Wire.kind(m),
            "body",
            "evalMetrics",
            at);
      }
      ObjectNode o = (ObjectNode) m;
      JsonNode name = Wire.field(o, "metricName", "metric_name");
      if (name == null || !name.isTextual()) {
        throw HttpError.invalid(
            name == null ? "missing" : "string_type",
            "'evalMetrics[" + at + "].metricName' must be a string",
            "body",
            "evalMetrics",
            at,
            "metricName");
      }
      JsonNode criterion = Wire.field(o, "criterion");
      if (criterion != null && !criterion.isObject() && !criterion.isNull()) {
        throw HttpError.invalid(
            "model_type",
            "'evalMetrics[" + at + "].criterion' must be an object, got " + Wire.kind(criterion),
            "body",
            "evalMetrics",
            at,
            "criterion");
      }
      ObjectNode c =
          criterion instanceof ObjectNode co
              ? (ObjectNode) snake(co)
              : Wire.MAPPER.createObjectNode();
      JsonNode threshold = Wire.field(o, "threshold");
      if (threshold == null) {
        threshold = c.get("threshold");
      }
      if (threshold == null || !threshold.isNumber()) {
        throw HttpError.invalid(
            threshold == null ? "missing" : "float_type",
            "'evalMetrics[" + at + "].threshold' must be a number",
            "body",
            "evalMetrics",
            at,
            "threshold");
      }
      c.set("threshold", threshold);
      // ADK's older place of the judge's options: on the metric, beside its threshold
      JsonNode options = Wire.field(o, "judgeModelOptions", "judge_model_options");
      if (options instanceof ObjectNode jo && !c.has("judge_model_options")) {
        c.set("judge_model_options", snake(jo));
      }
      JsonNode judgeModel = c.path("judge_model_options").get("judge_model");
      if (judgeModel != null && !judgeModel.isNull() && !judgeModel.isTextual()) {
        throw HttpError.invalid(
            "string_type",
            "'evalMetrics[" + at + "]' judgeModel must be a string",
            "body",
            "evalMetrics",
            at,
            "judgeModel");
      }
      if (JUDGED.contains(name.asText())) {
        judgeModels.put(
            name.asText(), judgeModel == null || judgeModel.isNull() ? null : judgeModel.asText());
      }
      criteria.set(name.asText(), c);
    }
    ObjectNode config = Wire.MAPPER.createObjectNode();
    config.set("criteria", criteria);
    try {
      return EvalConfig.parse(config.toString(), "evalMetrics");
    } catch (EvalFormatException e) {
      throw HttpError.badRequest(String.valueOf(e.getMessage()));
    }
  }

  private static final Set<String> JUDGED =
      Set.of(
          EvalMetrics.FINAL_RESPONSE_MATCH_V2, EvalMetrics.RUBRIC_BASED_FINAL_RESPONSE_QUALITY_V1);

  /** ADK's {@code metrics-info}: the metrics a run may ask for, each with its range. */
  private static JsonNode metricsInfo(boolean judged) {
    ArrayNode list = Wire.MAPPER.createArrayNode();
    List<String[]> metrics = new ArrayList<>(METRICS);
    if (judged) {
      metrics.addAll(JUDGED_METRICS);
    }
    for (String[] m : metrics) {
      ObjectNode o = list.addObject();
      o.put("metricName", m[0]);
      o.put("description", m[1]);
      ObjectNode interval = o.putObject("metricValueInfo").putObject("interval");
      interval.put("minValue", 0.0);
      interval.put("openAtMin", false);
      interval.put("maxValue", 1.0);
      interval.put("openAtMax", false);
    }
    return wrap("metricsInfo", list);
  }

  // ---------------------------------------------------------------------------------------------
  // helpers

  private @Nullable ObjectNode body(HttpExchange ex) throws IOException {
    return Wire.object(Wire.parse(readBody(ex, config.maxBodyBytes())), "the request body");
  }

  /**
   * The stored set.
   *
   * @param status what a missing set answers: ADK answers 400 where it lists or runs a set, 404
   *     where it reads or changes a case
   */
  private EvalSet requireSet(String app, String setId, int status) {
    return store
        .evalSet(app, setId)
        .map(json -> EvalSet.parse(json, "stored eval set " + setId, setId))
        .orElseThrow(
            () ->
                new HttpError(status, "Eval set `" + setId + "` not found in app '" + app + "'."));
  }

  private static HttpError caseNotFound(String setId, String caseId) {
    return HttpError.notFound("Eval set `" + setId + "` or Eval `" + caseId + "` not found.");
  }

  private static HttpError notFound(String method, String app, List<String> rest) {
    return HttpError.notFound(
        "no endpoint " + method + " /apps/" + app + "/" + String.join("/", rest));
  }

  private static List<String> strings(@Nullable JsonNode node, String name) {
    List<String> out = new ArrayList<>();
    if (node == null) {
      return out;
    }
    if (!node.isArray()) {
      throw HttpError.invalid(
          "list_type", "'" + name + "' must be a list, got " + Wire.kind(node), "body", name);
    }
    int i = 0;
    for (JsonNode v : node) {
      if (!v.isTextual()) {
        throw HttpError.invalid(
            "string_type",
            "'" + name + "[" + i + "]' must be a string, got " + Wire.kind(v),
            "body",
            name,
            i);
      }
      out.add(v.asText());
      i++;
    }
    return out;
  }

  private static ObjectNode wrap(String key, JsonNode value) {
    ObjectNode o = Wire.MAPPER.createObjectNode();
    o.set(key, value);
    return o;
  }

  private static JsonNode parse(String json) {
    try {
      return Wire.MAPPER.readTree(json);
    } catch (IOException e) {
      throw new IllegalStateException("stored eval JSON did not parse: " + e.getMessage(), e);
    }
  }

  /** Keys whose values are data (user or tool maps): their own keys stay as they are. */
  private static final Set<String> DATA_KEYS =
      Set.of(
          "args",
          "response",
          "state",
          "state_delta",
          "stateDelta",
          "custom_metadata",
          "customMetadata");

  /**
   * ADK's API form of an eval model's JSON: keys in camelCase (pydantic's aliases), the values of
   * data maps and adk4j's own fields ({@code adk4j_...}) unchanged.
   */
  static JsonNode camel(JsonNode node) {
    if (node.isArray()) {
      ArrayNode a = Wire.MAPPER.createArrayNode();
      node.forEach(v -> a.add(camel(v)));
      return a;
    }
    if (!node.isObject()) {
      return node;
    }
    ObjectNode o = Wire.MAPPER.createObjectNode();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> f = it.next();
      String k = f.getKey();
      if (k.startsWith("adk4j_")) {
        o.set(k, f.getValue());
      } else if (DATA_KEYS.contains(k)) {
        o.set(camel(k), f.getValue());
      } else {
        o.set(camel(k), camel(f.getValue()));
      }
    }
    return o;
  }

  /** ADK's API form read back: keys in snake_case (the criterion's own JSON). */
  private static JsonNode snake(JsonNode node) {
    if (node.isArray()) {
      ArrayNode a = Wire.MAPPER.createArrayNode();
      node.forEach(v -> a.add(snake(v)));
      return a;
    }
    if (!node.isObject()) {
      return node;
    }
    ObjectNode o = Wire.MAPPER.createObjectNode();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> f = it.next();
      StringBuilder k = new StringBuilder();
      for (char ch : f.getKey().toCharArray()) {
        if (Character.isUpperCase(ch)) {
          k.append('_').append(Character.toLowerCase(ch));
        } else {
          k.append(ch);
        }
      }
      o.set(k.toString(), snake(f.getValue()));
    }
    return o;
  }

  static String camel(String snake) {
    StringBuilder b = new StringBuilder(snake.length());
    boolean up = false;
    for (int i = 0; i < snake.length(); i++) {
      char c = snake.charAt(i);
      if (c == '_' && i > 0) {
        up = true;
      } else {
        b.append(up ? Character.toUpperCase(c) : c);
        up = false;
      }
    }
    return b.toString();
  }
}
