package dev.adk4j.models;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.LiveConnectConfig;
import com.google.genai.types.Part;
import com.google.genai.types.Tool;
import dev.adk4j.internal.AppendOnlyList;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What is sent to a model: the model name, the conversation contents, the system instruction and
 * the function declarations of the available tools, plus any other generation settings in {@link
 * #config()}. Immutable.
 */
public final class LlmRequest {
  private final @Nullable String model;
  private final List<Content> contents;
  private final @Nullable String systemInstruction;
  private final List<FunctionDeclaration> functionDeclarations;
  private final @Nullable GenerateContentConfig baseConfig;
  private final @Nullable LiveConnectConfig liveConnectConfig;

  private LlmRequest(Builder b) {
    this.model = b.model;
    this.contents = b.contentsShared ? b.contents : List.copyOf(b.contents);
    this.systemInstruction = b.systemInstruction;
    this.functionDeclarations = List.copyOf(b.functionDeclarations);
    this.baseConfig = b.config;
    this.liveConnectConfig = b.liveConnectConfig;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.model = model;
    b.contents = contents; // immutable: shared until the builder adds to it
    b.contentsShared = true;
    b.systemInstruction = systemInstruction;
    b.functionDeclarations.addAll(functionDeclarations);
    b.config = baseConfig;
    b.liveConnectConfig = liveConnectConfig;
    return b;
  }

  public Optional<String> model() {
    return Optional.ofNullable(model);
  }

  public List<Content> contents() {
    return contents;
  }

  /** The system instruction text, after templating; empty if there is none. */
  public Optional<String> systemInstruction() {
    return Optional.ofNullable(systemInstruction);
  }

  /**
   * ADK for Java's spelling: the system instruction texts, one here (adk4j joins the agent's
   * instructions into one text), none if there is no system instruction.
   */
  public List<String> getSystemInstructions() {
    return systemInstruction == null ? List.of() : List.of(systemInstruction);
  }

  /** ADK for Java's spelling of {@link #systemInstruction()}. */
  public Optional<String> getFirstSystemInstruction() {
    return systemInstruction();
  }

  /** The declarations of the tools the model may call. */
  public List<FunctionDeclaration> functionDeclarations() {
    return functionDeclarations;
  }

  /**
   * The full generation config: the base config given to the builder with the system instruction
   * and function declarations of this request applied.
   */
  public GenerateContentConfig config() {
    GenerateContentConfig.Builder c =
        baseConfig == null ? GenerateContentConfig.builder() : baseConfig.toBuilder();
    if (systemInstruction != null) {
      c.systemInstruction(
          Content.builder().parts(List.of(Part.fromText(systemInstruction))).build());
    }
    if (!functionDeclarations.isEmpty()) {
      List<Tool> tools = new ArrayList<>();
      if (baseConfig != null) {
        baseConfig.tools().ifPresent(tools::addAll);
      }
      tools.add(Tool.builder().functionDeclarations(functionDeclarations).build());
      c.tools(tools);
    }
    return c.build();
  }

  /**
   * ADK for Java's {@code liveConnectConfig()}: the settings of a live connection ({@code
   * BaseLlm.connect}) that a generation config cannot hold, such as the audio transcriptions and
   * the avatar a live run's {@code RunConfig} asks for; an empty config when none were set. A live
   * model applies {@link #config()}'s settings on top of it.
   */
  public LiveConnectConfig liveConnectConfig() {
    return liveConnectConfig != null ? liveConnectConfig : LiveConnectConfig.builder().build();
  }

  @Override
  public String toString() {
    return "LlmRequest{model="
        + model
        + ", systemInstruction="
        + systemInstruction
        + ", contents="
        + contents
        + ", functionDeclarations="
        + functionDeclarations
        + "}";
  }

  /** Builds an {@link LlmRequest}. Not thread-safe. */
  public static final class Builder {
    private @Nullable String model;

    /**
     * The contents: a list this builder owns, or, while {@link #contentsShared}, an immutable one
     * it shares (an {@link AppendOnlyList} it was given, or a built request's), copied before the
     * first {@link #addContent}; a request built meanwhile shares it too.
     */
    private List<Content> contents = new ArrayList<>();

    private boolean contentsShared;
    private @Nullable String systemInstruction;
    private final List<FunctionDeclaration> functionDeclarations = new ArrayList<>();
    private @Nullable GenerateContentConfig config;
    private @Nullable LiveConnectConfig liveConnectConfig;

    private Builder() {}

    public Builder model(@Nullable String model) {
      this.model = model;
      return this;
    }

    public Builder contents(List<Content> contents) {
      if (contents instanceof AppendOnlyList) {
        // immutable, elements non-null: shared, as a long conversation's history is not copied
        this.contents = contents;
        this.contentsShared = true;
      } else {
        this.contents = new ArrayList<>(contents);
        this.contentsShared = false;
      }
      return this;
    }

    public Builder addContent(Content content) {
      Objects.requireNonNull(content);
      if (contentsShared) {
        this.contents = new ArrayList<>(this.contents);
        this.contentsShared = false;
      }
      this.contents.add(content);
      return this;
    }

    public Builder systemInstruction(@Nullable String systemInstruction) {
      this.systemInstruction = systemInstruction;
      return this;
    }

    /** Appends {@code text} to the system instruction, separated by a blank line. */
    public Builder appendInstruction(String text) {
      if (text == null || text.isEmpty()) {
        return this;
      }
      this.systemInstruction =
          systemInstruction == null || systemInstruction.isEmpty()
              ? text
              : systemInstruction + "\n\n" + text;
      return this;
    }

    /**
     * ADK for Java's spelling: appends each of {@code instructions} in order, each separated from
     * what comes before by a blank line (as {@link #appendInstruction(String)}).
     */
    public Builder appendInstructions(List<String> instructions) {
      for (String text : instructions) {
        appendInstruction(text);
      }
      return this;
    }

    /**
     * Puts {@code text} before the system instruction, separated by a blank line (what a global
     * instruction does).
     */
    public Builder prependInstruction(String text) {
      if (text == null || text.isEmpty()) {
        return this;
      }
      this.systemInstruction =
          systemInstruction == null || systemInstruction.isEmpty()
              ? text
              : text + "\n\n" + systemInstruction;
      return this;
    }

    /** The system instruction built so far; empty if there is none. */
    public java.util.Optional<String> systemInstruction() {
      return java.util.Optional.ofNullable(systemInstruction);
    }

    public Builder functionDeclarations(List<FunctionDeclaration> declarations) {
      this.functionDeclarations.clear();
      this.functionDeclarations.addAll(declarations);
      return this;
    }

    public Builder addFunctionDeclaration(FunctionDeclaration declaration) {
      this.functionDeclarations.add(Objects.requireNonNull(declaration));
      return this;
    }

    /** Base generation settings (temperature, response schema, ...). */
    public Builder config(@Nullable GenerateContentConfig config) {
      this.config = config;
      return this;
    }

    /** The live connection's own settings (see {@link LlmRequest#liveConnectConfig()}). */
    public Builder liveConnectConfig(@Nullable LiveConnectConfig liveConnectConfig) {
      this.liveConnectConfig = liveConnectConfig;
      return this;
    }

    public LlmRequest build() {
      return new LlmRequest(this);
    }
  }
}
