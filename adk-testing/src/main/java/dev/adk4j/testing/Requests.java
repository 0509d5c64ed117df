package dev.adk4j.testing;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.models.LlmRequest;
import java.util.List;

/**
 * Reads the usual parts out of an {@link LlmRequest} (behind {@link ScriptedLlm}'s public static
 * readers) and describes requests and texts in one line for {@link ScriptedLlm}'s error messages
 * and step descriptions.
 */
final class Requests {

  private Requests() {}

  /** See {@link ScriptedLlm#instruction}. */
  static String instruction(LlmRequest request) {
    return request.systemInstruction().orElse("");
  }

  /** See {@link ScriptedLlm#userText}. */
  static String userText(LlmRequest request) {
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

  /** See {@link ScriptedLlm#toolNames}. */
  static List<String> toolNames(LlmRequest request) {
    return request.functionDeclarations().stream()
        .map(FunctionDeclaration::name)
        .map(n -> n.orElse(""))
        .toList();
  }

  /** See {@link ScriptedLlm#functionResponses}. */
  static List<FunctionResponse> functionResponses(LlmRequest request) {
    return request.contents().stream()
        .flatMap(c -> c.parts().orElse(List.of()).stream())
        .flatMap(p -> p.functionResponse().stream())
        .toList();
  }

  /** The joined non-thought text of {@code content}. */
  static String text(Content content) {
    StringBuilder sb = new StringBuilder();
    for (Part part : content.parts().orElse(List.of())) {
      if (!part.thought().orElse(false)) {
        part.text().ifPresent(sb::append);
      }
    }
    return sb.toString();
  }

  /** A one-line description of {@code request} for error messages. */
  static String summary(LlmRequest request) {
    return "instruction "
        + quote(instruction(request))
        + ", last user text "
        + quote(userText(request))
        + ", tools "
        + toolNames(request)
        + ", "
        + request.contents().size()
        + " content(s)";
  }

  /** {@code text} on one line, in quotes, cut to 120 characters. */
  static String quote(String text) {
    String oneLine = text.replace('\n', ' ');
    return '"' + (oneLine.length() > 120 ? oneLine.substring(0, 117) + "..." : oneLine) + '"';
  }
}
