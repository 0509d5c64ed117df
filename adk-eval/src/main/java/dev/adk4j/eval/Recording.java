package dev.adk4j.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.types.Content;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import dev.adk4j.agents.CallbackContext;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.plugins.BasePlugin;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Maybe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A recording of eval runs: for each case and run, every model response and every tool result, in
 * the order they came. A recorded run replays with no model and no tool: a plugin answers each
 * model call with the next recorded response and each tool call with the result recorded for the
 * same tool and arguments.
 *
 * <p>File: {@code {"format": "adk4j-eval-recording/1", "eval_set_id": ..., "cases": {"<eval_id>":
 * [{"model_responses": [...], "tool_results": [{"name", "args", "result"}]}, ...]}}}.
 */
final class Recording {
  static final String FORMAT = "adk4j-eval-recording/1";

  private final Map<String, List<ObjectNode>> cases = new LinkedHashMap<>();

  /** Records one run; the plugin fills {@code run}. */
  static final class Recorder extends BasePlugin {
    final ObjectNode run = Nodes.F.objectNode();
    private final ArrayNode models = run.putArray("model_responses");
    private final ArrayNode tools = run.putArray("tool_results");

    Recorder() {
      super("adk4j_eval_recorder");
    }

    @Override
    public Maybe<LlmResponse> afterModelCallback(CallbackContext context, LlmResponse response) {
      synchronized (this) {
        models.add(toNode(response));
      }
      return Maybe.empty();
    }

    @Override
    public Maybe<Map<String, Object>> afterToolCallback(
        BaseTool tool, Map<String, Object> args, ToolContext context, Map<String, Object> result) {
      synchronized (this) {
        ObjectNode t = tools.addObject();
        t.put("name", tool.name());
        t.set("args", Nodes.tree(args));
        t.set("result", Nodes.tree(result));
        // what the tool wrote to state, replayed with its result
        t.set("state_delta", Nodes.tree(context.state().delta()));
      }
      return Maybe.empty();
    }
  }

  /** Replays one recorded run. */
  static final class Replayer extends BasePlugin {
    private final String what;
    private final Deque<JsonNode> models = new ArrayDeque<>();
    private final Map<String, Deque<JsonNode>> tools = new HashMap<>();

    Replayer(String what, JsonNode run) {
      super("adk4j_eval_replayer");
      this.what = what;
      run.path("model_responses").forEach(models::add);
      for (JsonNode t : run.path("tool_results")) {
        tools
            .computeIfAbsent(key(t.path("name").asText(), t.path("args")), k -> new ArrayDeque<>())
            .add(t);
      }
    }

    @Override
    public Maybe<LlmResponse> beforeModelCallback(
        CallbackContext context, LlmRequest.Builder request) {
      JsonNode next;
      synchronized (this) {
        next = models.poll();
      }
      if (next == null) {
        return Maybe.error(
            new IllegalStateException("The recording of " + what + " has no more model responses"));
      }
      return Maybe.just(fromNode(next));
    }

    @Override
    public Maybe<Map<String, Object>> beforeToolCallback(
        BaseTool tool, Map<String, Object> args, ToolContext context) {
      JsonNode recorded;
      synchronized (this) {
        Deque<JsonNode> q = tools.get(key(tool.name(), Nodes.tree(args)));
        recorded = q == null ? null : q.poll();
      }
      if (recorded == null) {
        return Maybe.error(
            new IllegalStateException(
                "The recording of "
                    + what
                    + " has no result of tool "
                    + tool.name()
                    + " for these arguments"));
      }
      JsonNode delta = recorded.path("state_delta");
      if (delta.isObject()) {
        delta
            .fields()
            .forEachRemaining(
                e -> {
                  if (e.getValue().isNull()) {
                    context.state().remove(e.getKey());
                  } else {
                    context
                        .state()
                        .put(e.getKey(), Nodes.mapper().convertValue(e.getValue(), Object.class));
                  }
                });
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> map = Nodes.mapper().convertValue(recorded.path("result"), Map.class);
      return Maybe.just(map);
    }

    private static String key(String name, JsonNode args) {
      return name + "|" + Nodes.compact(Nodes.mapper().convertValue(args, JsonNode.class));
    }
  }

  synchronized void add(String evalId, ObjectNode run) {
    cases.computeIfAbsent(evalId, k -> new ArrayList<>()).add(run);
  }

  static @Nullable JsonNode run(JsonNode recording, String evalId, int run) {
    JsonNode runs = recording.path("cases").path(evalId);
    return runs.isArray() && run < runs.size() ? runs.get(run) : null;
  }

  static JsonNode read(Path file) {
    String source = "eval recording " + file;
    String json;
    try {
      json = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + source, e);
    }
    JsonNode n = Nodes.object(Nodes.parse(json, source), "$", source);
    if (!FORMAT.equals(n.path("format").asText())) {
      throw new EvalFormatException(source, "$.format", "expected " + FORMAT);
    }
    Nodes.object(Nodes.required(n, "cases", "$", source), "$.cases", source);
    return n;
  }

  synchronized void write(Path file, String evalSetId) {
    ObjectNode n = Nodes.F.objectNode();
    n.put("format", FORMAT);
    n.put("eval_set_id", evalSetId);
    ObjectNode c = n.putObject("cases");
    cases.forEach(
        (id, runs) -> {
          ArrayNode a = c.putArray(id);
          runs.forEach(a::add);
        });
    try {
      Files.writeString(file, Nodes.pretty(n), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write eval recording " + file, e);
    }
  }

  static ObjectNode toNode(LlmResponse r) {
    ObjectNode o = Nodes.F.objectNode();
    r.content().ifPresent(c -> o.set("content", Nodes.parse(c.toJson(), "content")));
    r.partial().ifPresent(p -> o.put("partial", p));
    r.turnComplete().ifPresent(p -> o.put("turn_complete", p));
    r.errorCode().ifPresent(p -> o.put("error_code", p));
    r.errorMessage().ifPresent(p -> o.put("error_message", p));
    r.usageMetadata().ifPresent(u -> o.set("usage_metadata", Nodes.parse(u.toJson(), "usage")));
    return o;
  }

  static LlmResponse fromNode(JsonNode n) {
    LlmResponse.Builder b = LlmResponse.builder();
    if (n.hasNonNull("content")) {
      b.content(Content.fromJson(Nodes.compact(n.get("content"))));
    }
    if (n.hasNonNull("partial")) {
      b.partial(n.get("partial").asBoolean());
    }
    if (n.hasNonNull("turn_complete")) {
      b.turnComplete(n.get("turn_complete").asBoolean());
    }
    if (n.hasNonNull("error_code")) {
      b.errorCode(n.get("error_code").asText());
    }
    if (n.hasNonNull("error_message")) {
      b.errorMessage(n.get("error_message").asText());
    }
    if (n.hasNonNull("usage_metadata")) {
      b.usageMetadata(
          GenerateContentResponseUsageMetadata.fromJson(Nodes.compact(n.get("usage_metadata"))));
    }
    return b.build();
  }
}
