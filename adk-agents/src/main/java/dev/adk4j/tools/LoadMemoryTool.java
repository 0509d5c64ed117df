package dev.adk4j.tools;

import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.Schema;
import com.google.genai.types.Type;
import dev.adk4j.internal.Json;
import dev.adk4j.memory.MemoryEntry;
import dev.adk4j.models.LlmRequest;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Single;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code load_memory} tool, as in ADK: the model calls it with a query to search the memory of
 * the current user ({@link ToolContext#searchMemory}), and gets {@code {"memories": [{"content":
 * ..., "author": ..., "timestamp": ...}, ...]}}, oldest first. It also tells the model, in the
 * system instruction, that it has a memory to search.
 *
 * <p>Needs a runner with a memory service; without one a call answers the model with an error.
 * Stateless and thread-safe.
 */
public final class LoadMemoryTool extends BaseTool {

  /** The tool's name, as the model calls it. */
  public static final String NAME = "load_memory";

  static final String INSTRUCTION =
      "You can recall earlier conversations with this user. When a question may depend on"
          + " something said in a past session, call the "
          + NAME
          + " function with a few words to search them.";

  private static final FunctionDeclaration DECLARATION =
      FunctionDeclaration.builder()
          .name(NAME)
          .description("Searches the memory of past conversations with the current user.")
          .parameters(
              Schema.builder()
                  .type(Type.Known.OBJECT)
                  .properties(
                      Map.of(
                          "query",
                          Schema.builder()
                              .type(Type.Known.STRING)
                              .description("Words to look for in past conversations.")
                              .build()))
                  .required(List.of("query"))
                  .build())
          .build();

  public LoadMemoryTool() {
    super(NAME, "Searches the memory of past conversations with the current user.");
  }

  @Override
  public Optional<FunctionDeclaration> declaration() {
    return Optional.of(DECLARATION);
  }

  /**
   * Searches the user's memory for {@code args.query}.
   *
   * @return (through the Single) {@code {"memories": [...]}}; an error if {@code query} is not a
   *     string or there is no memory service, which the calling agent gives the model as an error
   *     response
   */
  @Override
  public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext context) {
    if (!(args.get("query") instanceof String query)) {
      return Single.error(
          new IllegalArgumentException(
              "Tool '" + NAME + "' needs a string argument 'query', got " + args.keySet()));
    }
    return context
        .searchMemory(query)
        .map(
            found -> {
              List<Object> memories = new ArrayList<>();
              for (MemoryEntry m : found.memories()) {
                memories.add(asJson(m));
              }
              return Map.of("memories", memories);
            });
  }

  /** Tells the model it has a memory. */
  @Override
  public Completable processLlmRequest(LlmRequest.Builder request, ToolContext context) {
    return Completable.fromAction(() -> request.appendInstruction(INSTRUCTION));
  }

  /** A memory as JSON values: its content's JSON, author and timestamp (those it has). */
  static Map<String, Object> asJson(MemoryEntry m) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("content", Json.fromJson(Json.toJson(m.content()), Map.class));
    if (m.author() != null) {
      json.put("author", m.author());
    }
    if (m.timestamp() != null) {
      json.put("timestamp", m.timestamp());
    }
    return json;
  }
}
