package dev.adk4j.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One turn of a conversation in ADK's eval format: what the user said and, for an expected
 * invocation, the final response and the tool calls (with their responses) the agent should make;
 * for an actual invocation, what it did. Immutable; backed by the JSON it was read from, which is
 * written back unchanged (fields adk4j does not know included).
 */
public final class Invocation {
  private final ObjectNode node;
  private final Content userContent;
  private final @Nullable Content finalResponse;
  private final List<FunctionCall> toolUses;
  private final List<FunctionResponse> toolResponses;
  private final List<Rubric> rubrics;

  private Invocation(
      ObjectNode node,
      Content userContent,
      @Nullable Content finalResponse,
      List<FunctionCall> toolUses,
      List<FunctionResponse> toolResponses,
      List<Rubric> rubrics) {
    this.node = node;
    this.userContent = userContent;
    this.finalResponse = finalResponse;
    this.toolUses = List.copyOf(toolUses);
    this.toolResponses = List.copyOf(toolResponses);
    this.rubrics = List.copyOf(rubrics);
  }

  /** An invocation with the user's text, the expected final text and the expected tool calls. */
  public static Invocation of(
      String userText, @Nullable String finalResponseText, List<FunctionCall> toolUses) {
    Content user = Content.builder().role("user").parts(List.of(Part.fromText(userText))).build();
    Content answer =
        finalResponseText == null
            ? null
            : Content.builder()
                .role("model")
                .parts(List.of(Part.fromText(finalResponseText)))
                .build();
    return of("", user, answer, toolUses, List.of());
  }

  /** An invocation from genai values, as ADK writes it (snake_case). */
  public static Invocation of(
      String invocationId,
      Content userContent,
      @Nullable Content finalResponse,
      List<FunctionCall> toolUses,
      List<FunctionResponse> toolResponses) {
    ObjectNode n = Nodes.F.objectNode();
    n.put("invocation_id", invocationId);
    n.set("user_content", Nodes.adk(userContent.toJson()));
    if (finalResponse != null) {
      n.set("final_response", Nodes.adk(finalResponse.toJson()));
    }
    ObjectNode data = n.putObject("intermediate_data");
    ArrayNode uses = data.putArray("tool_uses");
    toolUses.forEach(c -> uses.add(Nodes.adk(c.toJson())));
    ArrayNode responses = data.putArray("tool_responses");
    toolResponses.forEach(r -> responses.add(Nodes.adk(r.toJson())));
    data.putArray("intermediate_responses");
    n.put("creation_timestamp", System.currentTimeMillis() / 1000.0);
    return new Invocation(n, userContent, finalResponse, toolUses, toolResponses, List.of());
  }

  static Invocation parse(JsonNode raw, String path, String source) {
    ObjectNode n = Nodes.object(raw, path, source);
    Content user =
        Nodes.content(
            Nodes.required(n, "user_content", path, source), path + ".user_content", source);
    JsonNode fr = Nodes.field(n, "final_response");
    Content answer = fr == null ? null : Nodes.content(fr, path + ".final_response", source);
    List<FunctionCall> uses = new ArrayList<>();
    List<FunctionResponse> responses = new ArrayList<>();
    JsonNode data = Nodes.field(n, "intermediate_data");
    if (data != null) {
      String dp = path + ".intermediate_data";
      Nodes.object(data, dp, source);
      JsonNode events = Nodes.field(data, "invocation_events");
      if (events != null) {
        // ADK's newer form: the invocation's events; tool calls and responses are their parts.
        int i = 0;
        for (JsonNode e : Nodes.array(events, dp + ".invocation_events", source)) {
          String ep = dp + ".invocation_events[" + i++ + "]";
          Nodes.object(e, ep, source);
          JsonNode c = Nodes.field(e, "content");
          if (c != null) {
            Content content = Nodes.content(c, ep + ".content", source);
            for (Part p : content.parts().orElse(List.of())) {
              p.functionCall().ifPresent(uses::add);
              p.functionResponse().ifPresent(responses::add);
            }
          }
        }
      }
      JsonNode tu = Nodes.field(data, "tool_uses");
      if (tu != null) {
        int i = 0;
        for (JsonNode c : Nodes.array(tu, dp + ".tool_uses", source)) {
          uses.add(Nodes.functionCall(c, dp + ".tool_uses[" + i++ + "]", source));
        }
      }
      JsonNode tr = Nodes.field(data, "tool_responses");
      if (tr != null) {
        int i = 0;
        for (JsonNode c : Nodes.array(tr, dp + ".tool_responses", source)) {
          responses.add(Nodes.functionResponse(c, dp + ".tool_responses[" + i++ + "]", source));
        }
      }
    }
    return new Invocation(
        n.deepCopy(), user, answer, uses, responses, parseRubrics(n, path, source));
  }

  static List<Rubric> parseRubrics(JsonNode owner, String path, String source) {
    JsonNode rs = Nodes.field(owner, "rubrics");
    List<Rubric> out = new ArrayList<>();
    if (rs == null) {
      return out;
    }
    int i = 0;
    for (JsonNode r : Nodes.array(rs, path + ".rubrics", source)) {
      String rp = path + ".rubrics[" + i++ + "]";
      Nodes.object(r, rp, source);
      String id = Nodes.text(r, "rubric_id", rp, source);
      JsonNode content = Nodes.required(r, "rubric_content", rp, source);
      Nodes.object(content, rp + ".rubric_content", source);
      out.add(new Rubric(id, Nodes.text(content, "text_property", rp + ".rubric_content", source)));
    }
    return out;
  }

  /** {@code invocation_id}, empty when the file has none. */
  public String invocationId() {
    JsonNode id = Nodes.field(node, "invocation_id");
    return id == null ? "" : id.asText();
  }

  public Content userContent() {
    return userContent;
  }

  /** The user's text: the text parts joined by new lines, as ADK's metrics read it. */
  public String userText() {
    return text(userContent);
  }

  public Optional<Content> finalResponse() {
    return Optional.ofNullable(finalResponse);
  }

  /** The final response's text parts joined by new lines (ADK's reading), empty if none. */
  public String finalResponseText() {
    return finalResponse == null ? "" : text(finalResponse);
  }

  /** The tool calls in order (from {@code tool_uses} or the parts of {@code invocation_events}). */
  public List<FunctionCall> toolUses() {
    return toolUses;
  }

  public List<FunctionResponse> toolResponses() {
    return toolResponses;
  }

  /** The rubrics of this invocation only ({@code rubrics}). */
  public List<Rubric> rubrics() {
    return rubrics;
  }

  /** This invocation's JSON (a copy). */
  public String toJson() {
    return Nodes.pretty(node);
  }

  ObjectNode node() {
    return node.deepCopy();
  }

  /** A copy with an extra top-level field, for the numbers a run measures. */
  Invocation with(String field, JsonNode value) {
    ObjectNode n = node.deepCopy();
    n.set(field, value);
    return new Invocation(n, userContent, finalResponse, toolUses, toolResponses, rubrics);
  }

  static String text(Content content) {
    List<String> texts = new ArrayList<>();
    for (Part p : content.parts().orElse(List.of())) {
      p.text().filter(t -> !t.isEmpty()).ifPresent(texts::add);
    }
    return String.join("\n", texts);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Invocation other && node.equals(other.node);
  }

  @Override
  public int hashCode() {
    return node.hashCode();
  }

  @Override
  public String toString() {
    return "Invocation{" + invocationId() + ", " + toolUses.size() + " tool uses}";
  }
}
