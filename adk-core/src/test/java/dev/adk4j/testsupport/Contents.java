package dev.adk4j.testsupport;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small factories and readers for genai {@link Content} in tests. Stateless; thread-safe. */
public final class Contents {
  private Contents() {}

  /** A {@code user} content with one text part. */
  public static Content user(String text) {
    return Content.builder().role("user").parts(Part.fromText(text)).build();
  }

  /** A {@code model} content with one text part. */
  public static Content model(String text) {
    return Content.builder().role("model").parts(Part.fromText(text)).build();
  }

  /** A {@code model} content with one function call (no id). */
  public static Content functionCall(String name, Map<String, ?> args) {
    return Content.builder().role("model").parts(Part.fromFunctionCall(name, copy(args))).build();
  }

  /** A {@code user} content with one function response, as a tool result is sent back. */
  public static Content functionResponse(String name, Map<String, ?> response) {
    return Content.builder()
        .role("user")
        .parts(Part.fromFunctionResponse(name, copy(response)))
        .build();
  }

  /** A request with one user text message and nothing else. */
  public static LlmRequest userRequest(String text) {
    return LlmRequest.builder().addContent(user(text)).build();
  }

  /** The joined non-thought text of {@code content}; empty if it has none. */
  public static String text(Content content) {
    StringBuilder sb = new StringBuilder();
    for (Part part : content.parts().orElse(List.of())) {
      if (!part.thought().orElse(false)) {
        part.text().ifPresent(sb::append);
      }
    }
    return sb.toString();
  }

  /** The joined non-thought text of the response's content; empty if it has none. */
  public static String text(LlmResponse response) {
    return response.content().map(Contents::text).orElse("");
  }

  /** The function calls in the response's content, in order. */
  public static List<FunctionCall> functionCalls(LlmResponse response) {
    return response.content().flatMap(Content::parts).orElse(List.of()).stream()
        .flatMap(p -> p.functionCall().stream())
        .toList();
  }

  /** The text of the last user content of {@code request}; empty if it has none. */
  public static String lastUserText(LlmRequest request) {
    List<Content> contents = request.contents();
    for (int i = contents.size() - 1; i >= 0; i--) {
      Content c = contents.get(i);
      if ("user".equals(c.role().orElse(null))) {
        String text = text(c);
        if (!text.isEmpty()) {
          return text;
        }
      }
    }
    return "";
  }

  static Map<String, Object> copy(Map<String, ?> map) {
    return new LinkedHashMap<>(map);
  }
}
