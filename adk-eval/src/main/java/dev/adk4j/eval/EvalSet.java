package dev.adk4j.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A set of eval cases in ADK's format ({@code *.evalset.json}: {@code eval_set_id}, {@code
 * eval_cases}), read from the JSON ADK for Python writes and written so ADK for Python reads it.
 * Field names are read in snake_case or camelCase, as ADK's models accept both; what was read is
 * written back unchanged, fields adk4j does not know included. ADK's older forms load too: the
 * {@code .test.json} list of turns ({@code query}, {@code expected_tool_use}, {@code reference})
 * and the old eval set list of {@code {name, data, initial_session}}; {@link #toLegacyJson()}
 * writes the latter.
 *
 * <p>Immutable and thread-safe. Invalid input fails with an {@link EvalFormatException} naming the
 * JSON path.
 */
public final class EvalSet {
  private final ObjectNode node;
  private final String evalSetId;
  private final List<EvalCase> cases;

  private EvalSet(ObjectNode node, String evalSetId, List<EvalCase> cases) {
    this.node = node;
    this.evalSetId = evalSetId;
    this.cases = List.copyOf(cases);
  }

  /** A new set of these cases. */
  public static EvalSet of(String evalSetId, List<EvalCase> cases) {
    if (evalSetId.isBlank()) {
      throw new IllegalArgumentException("eval_set_id is blank");
    }
    ObjectNode n = Nodes.F.objectNode();
    n.put("eval_set_id", evalSetId);
    n.put("name", evalSetId);
    ArrayNode list = n.putArray("eval_cases");
    cases.forEach(c -> list.add(c.node()));
    n.put("creation_timestamp", System.currentTimeMillis() / 1000.0);
    checkUniqueIds(cases, "eval set " + evalSetId);
    return new EvalSet(n, evalSetId, cases);
  }

  /** Reads a file: an eval set, or one of ADK's older forms (its id is then the file's name). */
  public static EvalSet read(Path file) {
    String json;
    try {
      json = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read eval set " + file, e);
    }
    String name = file.getFileName().toString();
    String id = name.replaceFirst("(\\.evalset|\\.test)?\\.json$", "");
    return parse(json, "eval set " + file, id);
  }

  /** Parses an eval set's JSON. */
  public static EvalSet parse(String json) {
    return parse(json, "eval set", "eval_set");
  }

  /**
   * Parses an eval set's JSON, naming {@code source} in errors; {@code legacyId} is the id given to
   * a set in one of ADK's older forms, which have none.
   */
  public static EvalSet parse(String json, String source, String legacyId) {
    JsonNode root = Nodes.parse(json, source);
    if (root.isArray()) {
      return legacy((ArrayNode) root, source, legacyId);
    }
    ObjectNode n = Nodes.object(root, "$", source);
    String id = Nodes.text(n, "eval_set_id", "$", source);
    if (id.isBlank()) {
      throw new EvalFormatException(source, "$.eval_set_id", "is blank");
    }
    List<EvalCase> cases = new ArrayList<>();
    JsonNode list = Nodes.required(n, "eval_cases", "$", source);
    int i = 0;
    for (JsonNode c : Nodes.array(list, "$.eval_cases", source)) {
      cases.add(EvalCase.parse(c, "$.eval_cases[" + i++ + "]", source));
    }
    Set<String> seen = new HashSet<>();
    for (int c = 0; c < cases.size(); c++) {
      if (!seen.add(cases.get(c).evalId())) {
        throw new EvalFormatException(
            source,
            "$.eval_cases[" + c + "].eval_id",
            "duplicate eval_id " + cases.get(c).evalId());
      }
    }
    return new EvalSet(n.deepCopy(), id, cases);
  }

  private static EvalSet legacy(ArrayNode root, String source, String id) {
    List<EvalCase> cases = new ArrayList<>();
    boolean turns = root.size() > 0 && root.get(0).has("query");
    if (turns) {
      // .test.json: one conversation, a list of turns
      cases.add(EvalCase.of(id, legacyTurns(root, "$", source), null));
    } else {
      int i = 0;
      for (JsonNode c : root) {
        String p = "$[" + i++ + "]";
        Nodes.object(c, p, source);
        String name = Nodes.text(c, "name", p, source);
        List<Invocation> conv =
            legacyTurns(
                Nodes.array(Nodes.required(c, "data", p, source), p + ".data", source),
                p + ".data",
                source);
        SessionInput input = null;
        JsonNode init = c.get("initial_session");
        if (init != null && init.isObject() && init.size() > 0) {
          JsonNode state = init.get("state");
          input =
              new SessionInput(
                  init.path("app_name").asText(""),
                  init.path("user_id").asText(""),
                  state == null
                      ? Map.of()
                      : Nodes.map(state, p + ".initial_session.state", source));
        }
        cases.add(EvalCase.of(name, conv, input));
      }
    }
    checkUniqueIds(cases, source);
    return of(id, cases);
  }

  private static List<Invocation> legacyTurns(ArrayNode turns, String path, String source) {
    List<Invocation> out = new ArrayList<>();
    int i = 0;
    for (JsonNode t : turns) {
      String p = path + "[" + i++ + "]";
      Nodes.object(t, p, source);
      String query = Nodes.text(t, "query", p, source);
      String reference = Nodes.optionalText(t, "reference", p, source);
      List<FunctionCall> uses = new ArrayList<>();
      JsonNode etu = t.get("expected_tool_use");
      if (etu != null) {
        int j = 0;
        for (JsonNode u : Nodes.array(etu, p + ".expected_tool_use", source)) {
          String up = p + ".expected_tool_use[" + j++ + "]";
          Nodes.object(u, up, source);
          String name = Nodes.text(u, "tool_name", up, source);
          JsonNode input = u.get("tool_input");
          Map<String, Object> args =
              input == null ? Map.of() : Nodes.map(input, up + ".tool_input", source);
          uses.add(FunctionCall.builder().name(name).args(args).build());
        }
      }
      Content user = Content.builder().role("user").parts(List.of(Part.fromText(query))).build();
      Content answer =
          Content.builder()
              .role("model")
              .parts(List.of(Part.fromText(reference == null ? "" : reference)))
              .build();
      out.add(Invocation.of(java.util.UUID.randomUUID().toString(), user, answer, uses, List.of()));
    }
    return out;
  }

  private static void checkUniqueIds(List<EvalCase> cases, String source) {
    Set<String> seen = new HashSet<>();
    for (EvalCase c : cases) {
      if (!seen.add(c.evalId())) {
        throw new IllegalArgumentException("Duplicate eval_id " + c.evalId() + " in " + source);
      }
    }
  }

  public String evalSetId() {
    return evalSetId;
  }

  public Optional<String> name() {
    JsonNode n = Nodes.field(node, "name");
    return n == null ? Optional.empty() : Optional.of(n.asText());
  }

  public List<EvalCase> cases() {
    return cases;
  }

  public Optional<EvalCase> find(String evalId) {
    return cases.stream().filter(c -> c.evalId().equals(evalId)).findFirst();
  }

  /** A copy with {@code evalCase} added, or in place of the case with its id. */
  public EvalSet withCase(EvalCase evalCase) {
    List<EvalCase> next = new ArrayList<>();
    ObjectNode n = node.deepCopy();
    ArrayNode list = n.putArray("eval_cases");
    boolean replaced = false;
    for (EvalCase c : cases) {
      EvalCase keep = c.evalId().equals(evalCase.evalId()) ? evalCase : c;
      replaced |= keep == evalCase;
      next.add(keep);
      list.add(keep.node());
    }
    if (!replaced) {
      next.add(evalCase);
      list.add(evalCase.node());
    }
    return new EvalSet(n, evalSetId, next);
  }

  /** A copy without the case {@code evalId} (unchanged if there is none). */
  public EvalSet withoutCase(String evalId) {
    List<EvalCase> next = new ArrayList<>();
    ObjectNode n = node.deepCopy();
    ArrayNode list = n.putArray("eval_cases");
    for (EvalCase c : cases) {
      if (!c.evalId().equals(evalId)) {
        next.add(c);
        list.add(c.node());
      }
    }
    return new EvalSet(n, evalSetId, next);
  }

  /** The eval set JSON, as read (unchanged) or as ADK writes it (snake_case). */
  public String toJson() {
    return Nodes.pretty(node);
  }

  /** Writes {@link #toJson()} to {@code file}. */
  public void write(Path file) {
    try {
      Files.writeString(file, toJson(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write eval set " + evalSetId + " to " + file, e);
    }
  }

  /**
   * ADK's older form: a list of {@code {name, data: [{query, expected_tool_use: [{tool_name,
   * tool_input}], expected_intermediate_agent_responses, reference}], initial_session}}. Tool
   * responses, rubrics and state checks have no place in it and are left out.
   */
  public String toLegacyJson() {
    ArrayNode root = Nodes.F.arrayNode();
    for (EvalCase c : cases) {
      ObjectNode o = root.addObject();
      o.put("name", c.evalId());
      ArrayNode data = o.putArray("data");
      for (Invocation inv : c.conversation()) {
        ObjectNode t = data.addObject();
        t.put("query", inv.userText());
        ArrayNode uses = t.putArray("expected_tool_use");
        for (FunctionCall fc : inv.toolUses()) {
          ObjectNode u = uses.addObject();
          u.put("tool_name", fc.name().orElse(""));
          u.set("tool_input", Nodes.tree(fc.args().orElse(Map.of())));
        }
        t.putArray("expected_intermediate_agent_responses");
        t.put("reference", inv.finalResponseText());
      }
      ObjectNode init = o.putObject("initial_session");
      c.sessionInput()
          .ifPresent(
              si -> {
                init.set("state", Nodes.tree(si.state()));
                init.put("app_name", si.appName());
                init.put("user_id", si.userId());
              });
    }
    return Nodes.pretty(root);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EvalSet other && node.equals(other.node);
  }

  @Override
  public int hashCode() {
    return node.hashCode();
  }

  @Override
  public String toString() {
    return "EvalSet{" + evalSetId + ", " + cases.size() + " cases}";
  }
}
