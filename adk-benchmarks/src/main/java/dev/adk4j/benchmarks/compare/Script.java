package dev.adk4j.benchmarks.compare;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import java.util.List;
import java.util.Map;

/**
 * The scripted model's two answers, as google-genai contents (a type both implementations share,
 * immutable): a request whose last content is not a function response gets the function call, one
 * that ends with the function response gets the final text. Both scripted models answer at once, on
 * the calling thread.
 */
final class Script {
  private Script() {}

  static final Content USER_MESSAGE =
      Content.builder().role("user").parts(Part.fromText(Workload.USER_MESSAGE)).build();

  static final Content FUNCTION_CALL =
      Content.builder()
          .role("model")
          .parts(
              Part.builder()
                  .functionCall(
                      FunctionCall.builder()
                          .name(Workload.TOOL)
                          .args(Map.of(Workload.TOOL_ARG, Workload.TOOL_ARG_VALUE))
                          .build())
                  .build())
          .build();

  static final Content FINAL_ANSWER =
      Content.builder().role("model").parts(Part.fromText(Workload.FINAL_ANSWER)).build();

  /** The answer to a request with these contents. */
  static Content answer(List<Content> contents) {
    return endsWithFunctionResponse(contents) ? FINAL_ANSWER : FUNCTION_CALL;
  }

  private static boolean endsWithFunctionResponse(List<Content> contents) {
    if (contents.isEmpty()) {
      return false;
    }
    List<Part> parts = contents.get(contents.size() - 1).parts().orElse(List.of());
    for (Part p : parts) {
      if (p.functionResponse().isPresent()) {
        return true;
      }
    }
    return false;
  }

  static Content question(int i) {
    return Content.builder().role("user").parts(Part.fromText(Workload.question(i))).build();
  }

  static Content answer(int i) {
    return Content.builder().role("model").parts(Part.fromText(Workload.answer(i))).build();
  }
}
