package dev.adk4j.tools;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.Part;
import dev.adk4j.memory.MemoryEntry;
import dev.adk4j.models.LlmRequest;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Single;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code preload_memory} tool, as in ADK: not called by the model (it declares no function),
 * but, each time its agent builds a model request, searches the current user's memory with the text
 * of the user's message and puts what it finds into the system instruction, between {@code
 * <PAST_CONVERSATIONS>} tags, one line per memory ({@code [time] author: text}), oldest first.
 * Nothing is added when the message has no text or nothing matches.
 *
 * <p>Needs a runner with a memory service: without one, the model request, and so the invocation,
 * fails with an {@link IllegalStateException} saying so. Stateless and thread-safe.
 */
public final class PreloadMemoryTool extends BaseTool {

  /** The tool's name. */
  public static final String NAME = "preload_memory";

  public PreloadMemoryTool() {
    super(
        NAME, "Puts memories of past conversations that match the user's message in the request.");
  }

  /** None: the model never calls this tool. */
  @Override
  public Optional<FunctionDeclaration> declaration() {
    return Optional.empty();
  }

  /** Refused: the tool only prepares requests. */
  @Override
  public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext context) {
    return refusedCall(NAME);
  }

  /**
   * The answer of a tool that declares no function ({@code preload_memory}, {@code ExampleTool})
   * when it is called anyway: an error naming it.
   */
  static Single<Map<String, Object>> refusedCall(String toolName) {
    return Single.error(
        new UnsupportedOperationException(
            "Tool '" + toolName + "' is not called by the model; it only prepares requests"));
  }

  @Override
  public Completable processLlmRequest(LlmRequest.Builder request, ToolContext context) {
    String query = context.userContent().map(PreloadMemoryTool::textOf).orElse("");
    if (query.isBlank()) {
      return Completable.complete();
    }
    return context
        .searchMemory(query)
        .doOnSuccess(
            found -> {
              if (found.memories().isEmpty()) {
                return;
              }
              StringBuilder b =
                  new StringBuilder(
                      "Below are parts of earlier conversations with this user that may help with"
                          + " the current message.\n<PAST_CONVERSATIONS>\n");
              for (MemoryEntry m : found.memories()) {
                if (m.timestamp() != null) {
                  b.append('[').append(m.timestamp()).append("] ");
                }
                if (m.author() != null) {
                  b.append(m.author()).append(": ");
                }
                b.append(textOf(m.content()).replace('\n', ' ')).append('\n');
              }
              b.append("</PAST_CONVERSATIONS>");
              request.appendInstruction(b.toString());
            })
        .ignoreElement();
  }

  /** The non-thought text parts of {@code content}, joined by new lines. */
  static String textOf(Content content) {
    StringBuilder b = new StringBuilder();
    for (Part p : content.parts().orElse(java.util.List.of())) {
      if (p.thought().orElse(false) || p.text().isEmpty() || p.text().get().isEmpty()) {
        continue;
      }
      if (b.length() > 0) {
        b.append('\n');
      }
      b.append(p.text().get());
    }
    return b.toString();
  }
}
