package dev.adk4j.tools;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.Part;
import dev.adk4j.internal.Json;
import dev.adk4j.models.LlmRequest;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Single;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * ADK's {@code ExampleTool}: few-shot examples for the model, put in the system instruction of
 * every request its agent builds. The model does not call it (it declares no function). Each time,
 * the text of the user's message is the query: the examples are the {@link BaseExampleProvider}'s
 * for it, or else the ones added to the builder; nothing is added when the message has no text or
 * there is no example.
 *
 * <p>The examples are written as one block after the agent's instruction: a line saying what
 * follows, then, between {@code <EXAMPLES>} and {@code </EXAMPLES>}, each example numbered, one
 * line per message ({@code [user] ...}, {@code [model] ...}), a function call as {@code [model]
 * calls name({"arg": ...})} and a response as {@code [tool] name answered {...}} (the arguments and
 * the response as JSON). The wording is adk4j's own; ADK for Java writes the same content in its
 * own layout.
 *
 * <pre>{@code
 * ExampleTool examples = ExampleTool.builder()
 *     .addExample(Example.builder()
 *         .input(Content.fromParts(Part.fromText("What is 2 + 2?")))
 *         .output(List.of(Content.builder().role("model")
 *             .parts(List.of(Part.fromText("4"))).build()))
 *         .build())
 *     .build();
 * LlmAgent agent = LlmAgent.builder().name("math").model(model).tools(examples).build();
 * }</pre>
 *
 * Immutable and thread-safe if its provider is.
 */
public final class ExampleTool extends BaseTool {

  /** The default name. */
  public static final String DEFAULT_NAME = "example_tool";

  private static final String DEFAULT_DESCRIPTION =
      "Puts few-shot examples in the model's instructions.";

  private static final String INTRO =
      "The examples below show how conversations like this one went: the user's message, then the"
          + " replies, function calls and function results that followed it. Follow them where"
          + " they fit.";

  private final @Nullable BaseExampleProvider provider;
  private final List<Example> examples;

  private ExampleTool(Builder b) {
    super(
        b.name == null || b.name.isEmpty() ? DEFAULT_NAME : b.name,
        b.description == null || b.description.isEmpty() ? DEFAULT_DESCRIPTION : b.description);
    this.provider = b.provider;
    this.examples = List.copyOf(b.examples);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** None: the model never calls this tool. */
  @Override
  public Optional<FunctionDeclaration> declaration() {
    return Optional.empty();
  }

  /** Refused: the tool only prepares requests. */
  @Override
  public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext context) {
    return PreloadMemoryTool.refusedCall(name());
  }

  /** Appends the examples for the user's message to {@code request}'s system instruction. */
  @Override
  public Completable processLlmRequest(LlmRequest.Builder request, ToolContext context) {
    return Completable.fromAction(
        () -> {
          String query = context.userContent().map(PreloadMemoryTool::textOf).orElse("");
          if (query.isBlank()) {
            return;
          }
          List<Example> chosen = provider != null ? provider.getExamples(query) : examples;
          String block = examplesBlock(chosen);
          if (!block.isEmpty()) {
            request.appendInstructions(List.of(block));
          }
        });
  }

  /**
   * ADK's {@code ExampleUtils.buildExampleSi} in adk4j's words: {@code examples} as the block this
   * tool puts in the system instruction (see the class comment); empty for no example.
   */
  public static String examplesBlock(List<Example> examples) {
    if (examples.isEmpty()) {
      return "";
    }
    StringBuilder b = new StringBuilder(INTRO).append("\n<EXAMPLES>\n");
    int n = 0;
    for (Example example : examples) {
      b.append("Example ").append(++n).append(":\n");
      String input = PreloadMemoryTool.textOf(example.input());
      if (!input.isEmpty()) {
        b.append("[user] ").append(input).append('\n');
      }
      for (Content content : example.output()) {
        appendContent(b, content);
      }
      b.append('\n');
    }
    return b.append("</EXAMPLES>").toString();
  }

  private static void appendContent(StringBuilder b, Content content) {
    String role = "model".equals(content.role().orElse("model")) ? "[model]" : "[user]";
    for (Part part : content.parts().orElse(List.of())) {
      if (part.functionCall().isPresent()) {
        var call = part.functionCall().get();
        b.append("[model] calls ")
            .append(call.name().orElse(""))
            .append('(')
            .append(Json.toJson(call.args().orElse(Map.of())))
            .append(")\n");
      } else if (part.functionResponse().isPresent()) {
        var response = part.functionResponse().get();
        b.append("[tool] ")
            .append(response.name().orElse(""))
            .append(" answered ")
            .append(Json.toJson(response.response().orElse(Map.of())))
            .append('\n');
      } else if (part.text().isPresent() && !part.thought().orElse(false)) {
        b.append(role).append(' ').append(part.text().get()).append('\n');
      }
    }
  }

  /** Builds an {@link ExampleTool}. Not thread-safe. */
  public static final class Builder {
    private final List<Example> examples = new ArrayList<>();
    private @Nullable String name;
    private @Nullable String description;
    private @Nullable BaseExampleProvider provider;

    private Builder() {}

    /** The tool's name; {@link ExampleTool#DEFAULT_NAME} when unset or empty. */
    public Builder name(String name) {
      this.name = name;
      return this;
    }

    /** ADK's deprecated spelling of {@link #name(String)}. */
    @Deprecated
    public Builder setName(String name) {
      return name(name);
    }

    public Builder description(String description) {
      this.description = description;
      return this;
    }

    /** ADK's deprecated spelling of {@link #description(String)}. */
    @Deprecated
    public Builder setDescription(String description) {
      return description(description);
    }

    /** Adds a fixed example, shown whatever the user's message (unless a provider is set). */
    public Builder addExample(Example example) {
      this.examples.add(java.util.Objects.requireNonNull(example, "example"));
      return this;
    }

    /** Chooses the examples per user message; it takes precedence over {@link #addExample}. */
    public Builder exampleProvider(@Nullable BaseExampleProvider provider) {
      this.provider = provider;
      return this;
    }

    /** ADK's deprecated spelling of {@link #exampleProvider}. */
    @Deprecated
    public Builder setExampleProvider(@Nullable BaseExampleProvider provider) {
      return exampleProvider(provider);
    }

    public ExampleTool build() {
      return new ExampleTool(this);
    }
  }
}
