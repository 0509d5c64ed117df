package dev.adk4j.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.Client;
import com.google.genai.types.HttpOptions;
import com.google.genai.types.HttpRetryOptions;
import dev.adk4j.modelcontract.ModelContract;
import dev.adk4j.modelcontract.WireServer;
import dev.adk4j.modelcontract.WireServer.Reply;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.Gemini;
import java.util.ArrayList;
import java.util.List;

/**
 * The model contract on {@link Gemini}, against a local server speaking the Gemini Developer API
 * ({@code generateContent}, and {@code streamGenerateContent?alt=sse}). The reference every other
 * provider's adapter is held to.
 */
class GeminiModelContractTest extends ModelContract {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Three attempts, as {@code Gemini.builder().retryAttempts(3)} makes them, but with backoff
   * delays of 50 to 200 ms instead of google-genai's default of 1 s doubling (which also sleeps
   * after the last attempt: 10 s for one failing call).
   */
  @Override
  protected BaseLlm model(String baseUrl) {
    Client client =
        Client.builder()
            .apiKey("test-key")
            .vertexAI(false)
            .httpOptions(
                HttpOptions.builder()
                    .baseUrl(baseUrl)
                    .retryOptions(
                        HttpRetryOptions.builder()
                            .attempts(3)
                            .initialDelay(0.05)
                            .maxDelay(0.2)
                            .jitter(0.0)
                            .build())
                    .build())
            .build();
    return Gemini.builder().modelName(MODEL).client(client).build();
  }

  /** Gemini retries with google-genai's backoff, which does not read Retry-After. */
  @Override
  protected boolean honoursRetryAfter() {
    return false;
  }

  private static ObjectNode response(ArrayNode parts, String finish) {
    ObjectNode r = JSON.createObjectNode();
    ObjectNode candidate = r.putArray("candidates").addObject();
    ObjectNode content = candidate.putObject("content");
    content.put("role", "model");
    content.set("parts", parts);
    if (finish != null) {
      candidate.put("finishReason", finish);
    }
    return r;
  }

  private static void usage(ObjectNode r, int prompt, int output) {
    ObjectNode u = r.putObject("usageMetadata");
    u.put("promptTokenCount", prompt);
    u.put("candidatesTokenCount", output);
    u.put("totalTokenCount", prompt + output);
  }

  private static ArrayNode textParts(String text) {
    ArrayNode parts = JSON.createArrayNode();
    parts.addObject().put("text", text);
    return parts;
  }

  private static ArrayNode callParts(List<Call> calls) {
    ArrayNode parts = JSON.createArrayNode();
    for (Call c : calls) {
      ObjectNode call = parts.addObject().putObject("functionCall");
      call.put("id", c.id());
      call.put("name", c.name());
      call.set("args", JSON.valueToTree(c.args()));
    }
    return parts;
  }

  private static String event(ObjectNode chunk) {
    return "data: " + chunk + "\r\n\r\n";
  }

  @Override
  protected Reply text(String text, int promptTokens, int outputTokens) {
    ObjectNode r = response(textParts(text), "STOP");
    usage(r, promptTokens, outputTokens);
    return Reply.json(200, r.toString());
  }

  @Override
  protected Reply calls(List<Call> calls) {
    return Reply.json(200, response(callParts(calls), "STOP").toString());
  }

  @Override
  protected Reply streamedText(List<String> chunks, int promptTokens, int outputTokens) {
    List<String> events = new ArrayList<>();
    for (int i = 0; i < chunks.size(); i++) {
      boolean last = i == chunks.size() - 1;
      ObjectNode r = response(textParts(chunks.get(i)), last ? "STOP" : null);
      if (last) {
        usage(r, promptTokens, outputTokens);
      }
      events.add(event(r));
    }
    return Reply.sse(events);
  }

  @Override
  protected Reply streamedCalls(List<Call> calls) {
    // The Gemini API streams a function call whole, in one chunk.
    List<String> events = new ArrayList<>();
    for (int i = 0; i < calls.size(); i++) {
      events.add(
          event(response(callParts(List.of(calls.get(i))), i == calls.size() - 1 ? "STOP" : null)));
    }
    return Reply.sse(events);
  }

  @Override
  protected Reply error(int status, String message) {
    ObjectNode body = JSON.createObjectNode();
    ObjectNode error = body.putObject("error");
    error.put("code", status);
    error.put("message", message);
    error.put(
        "status",
        switch (status) {
          case 429 -> "RESOURCE_EXHAUSTED";
          case 503 -> "UNAVAILABLE";
          default -> "INTERNAL";
        });
    return Reply.json(status, body.toString());
  }

  @Override
  protected Seen seen(WireServer.Request request) {
    JsonNode body = request.json();
    StringBuilder system = null;
    for (JsonNode p : body.path("systemInstruction").path("parts")) {
      system = system == null ? new StringBuilder() : system;
      system.append(p.path("text").asText());
    }
    List<String> tools = new ArrayList<>();
    for (JsonNode t : body.path("tools")) {
      for (JsonNode d : t.path("functionDeclarations")) {
        tools.add(d.path("name").asText());
      }
    }
    List<String> userTexts = new ArrayList<>();
    List<String> callIds = new ArrayList<>();
    List<String> responseIds = new ArrayList<>();
    for (JsonNode c : body.path("contents")) {
      for (JsonNode p : c.path("parts")) {
        if (p.has("text") && c.path("role").asText().equals("user")) {
          userTexts.add(p.path("text").asText());
        }
        if (p.has("functionCall")) {
          callIds.add(p.path("functionCall").path("id").asText());
        }
        if (p.has("functionResponse")) {
          responseIds.add(p.path("functionResponse").path("id").asText());
        }
      }
    }
    JsonNode config = body.path("generationConfig");
    boolean json =
        config.has("responseSchema")
            || config.path("responseMimeType").asText().equals("application/json");
    return new Seen(
        system == null ? null : system.toString(), tools, userTexts, callIds, responseIds, json);
  }
}
