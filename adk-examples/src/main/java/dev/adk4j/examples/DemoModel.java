package dev.adk4j.examples;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.Part;
import dev.adk4j.internal.Json;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import io.reactivex.rxjava3.core.Flowable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The built-in demo model the examples use when no Gemini API key is set. It is not a language
 * model: it replies deterministically, so the examples run offline and print the same transcript
 * every time.
 *
 * <p>On a fresh user turn, if the agent has tools, it calls the first one (with the arguments the
 * example gave for it); after a tool result it reports that result; otherwise it answers with the
 * example's scripted reply, computed from the request (so a reply can quote the instruction it
 * received).
 */
public final class DemoModel extends BaseLlm {

  /** The model name the demo model reports. */
  public static final String NAME = "adk4j-demo-model";

  private final Function<LlmRequest, String> reply;
  private final Map<String, Map<String, Object>> toolArgs;
  private final boolean allTools;

  private DemoModel(
      Function<LlmRequest, String> reply,
      Map<String, Map<String, Object>> toolArgs,
      boolean allTools) {
    super(NAME);
    this.reply = Objects.requireNonNull(reply, "reply");
    this.toolArgs = Map.copyOf(toolArgs);
    this.allTools = allTools;
  }

  /** A demo model that answers with {@code reply}'s text and calls tools without arguments. */
  public static DemoModel replying(Function<LlmRequest, String> reply) {
    return new DemoModel(reply, Map.of(), false);
  }

  /** A demo model that calls tools with the given arguments (tool name to arguments). */
  public static DemoModel replying(
      Function<LlmRequest, String> reply, Map<String, Map<String, Object>> toolArgs) {
    return new DemoModel(reply, toolArgs, false);
  }

  /**
   * A demo model that, on a fresh user turn, calls every tool at once (several function calls in
   * one response, in the order the agent declares its tools), then reports all their results.
   */
  public static DemoModel callingAllTools(
      Function<LlmRequest, String> reply, Map<String, Map<String, Object>> toolArgs) {
    return new DemoModel(reply, toolArgs, true);
  }

  @Override
  public boolean blocksSubscriber() {
    return false; // answers at once, computed on the subscribing thread
  }

  @Override
  public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
    return Flowable.fromCallable(() -> respond(request));
  }

  private LlmResponse respond(LlmRequest request) {
    List<Content> contents = request.contents();
    Content last = contents.isEmpty() ? null : contents.get(contents.size() - 1);
    Part lastPart =
        last == null ? null : last.parts().orElse(List.of()).stream().findFirst().orElse(null);
    if (last != null && lastPart != null && lastPart.functionResponse().isPresent()) {
      List<String> results = new ArrayList<>();
      for (Part p : last.parts().orElse(List.of())) {
        p.functionResponse()
            .ifPresent(
                r ->
                    results.add(
                        r.name().orElse("the tool")
                            + " returned "
                            + Json.toJson(r.response().orElse(Map.of()))));
      }
      return text("Done: " + String.join("; ", results) + ".");
    }
    List<Part> calls = new ArrayList<>();
    for (FunctionDeclaration d : request.functionDeclarations()) {
      String name = d.name().orElse("");
      if (!name.equals("transfer_to_agent")) {
        FunctionCall call =
            FunctionCall.builder().name(name).args(toolArgs.getOrDefault(name, Map.of())).build();
        calls.add(Part.builder().functionCall(call).build());
        if (!allTools) {
          break;
        }
      }
    }
    if (!calls.isEmpty()) {
      return LlmResponse.builder()
          .content(Content.builder().role("model").parts(calls).build())
          .build();
    }
    return text(reply.apply(request));
  }

  private static LlmResponse text(String text) {
    return LlmResponse.builder()
        .content(Content.builder().role("model").parts(List.of(Part.fromText(text))).build())
        .build();
  }
}
