package dev.adk4j.examples;

import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.Gemini;
import dev.adk4j.models.LlmRegistry;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.anthropic.AnthropicModel;
import dev.adk4j.models.openai.OpenAiModel;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Which model the examples use, picked from the environment (see docs/models.md):
 *
 * <ol>
 *   <li>{@code ADK4J_MODEL} naming a provider ({@code openai/gpt-4o-mini}, {@code
 *       anthropic/claude-sonnet-4-5}, {@code ollama/llama3.2}, ...): that model, through {@link
 *       LlmRegistry};
 *   <li>else Gemini ({@code gemini-2.5-flash}, or {@code ADK4J_MODEL}) when {@code GOOGLE_API_KEY}
 *       or {@code GEMINI_API_KEY} is set;
 *   <li>else an OpenAI-compatible model ({@code gpt-4o-mini}, or {@code ADK4J_MODEL}) when {@code
 *       OPENAI_BASE_URL} or {@code OPENAI_API_KEY} is set: a local vLLM, Ollama or LM Studio server
 *       is used by pointing {@code OPENAI_BASE_URL} at it;
 *   <li>else Claude ({@code claude-sonnet-4-5}, or {@code ADK4J_MODEL}) when {@code
 *       ANTHROPIC_API_KEY} is set;
 *   <li>else the built-in {@link DemoModel}, offline.
 * </ol>
 *
 * The system property {@code adk4j.demo=true} forces the demo model (the tests set it).
 */
public final class ExampleModels {
  private ExampleModels() {}

  /** The default Gemini model of the examples. */
  public static final String DEFAULT_GEMINI = "gemini-2.5-flash";

  /** The default model on an OpenAI-compatible server. */
  public static final String DEFAULT_OPENAI = "gpt-4o-mini";

  /** The default Claude model. */
  public static final String DEFAULT_ANTHROPIC = "claude-sonnet-4-5";

  /** The name of the live model the environment asks for; null for the demo model. */
  static @Nullable String liveModel() {
    if (Boolean.getBoolean("adk4j.demo")) {
      return null; // forced offline, as the tests do
    }
    String chosen = System.getenv("ADK4J_MODEL");
    if (isSet(chosen) && chosen.contains("/")) {
      return chosen;
    }
    if (isSet(System.getenv(Gemini.GOOGLE_API_KEY))
        || isSet(System.getenv(Gemini.GEMINI_API_KEY))) {
      return isSet(chosen) ? chosen : DEFAULT_GEMINI;
    }
    if (isSet(System.getenv(OpenAiModel.OPENAI_BASE_URL))
        || isSet(System.getenv(OpenAiModel.OPENAI_API_KEY))) {
      return "openai/" + (isSet(chosen) ? chosen : DEFAULT_OPENAI);
    }
    if (isSet(System.getenv(AnthropicModel.ANTHROPIC_API_KEY))) {
      return "anthropic/" + (isSet(chosen) ? chosen : DEFAULT_ANTHROPIC);
    }
    return null;
  }

  /** A one-line description of the model choice, for the transcript. */
  public static String describe() {
    String live = liveModel();
    return live != null
        ? "Model: " + live + " (chosen from the environment; see docs/models.md)."
        : "Model: the built-in demo model ("
            + DemoModel.NAME
            + "): no GOOGLE_API_KEY, GEMINI_API_KEY, OPENAI_BASE_URL, OPENAI_API_KEY or"
            + " ANTHROPIC_API_KEY is set, so replies are scripted and deterministic, not"
            + " generated.";
  }

  /**
   * The live model if the environment names one, else a demo model answering with {@code
   * demoReply}.
   */
  public static BaseLlm model(Function<LlmRequest, String> demoReply) {
    return model(demoReply, Map.of());
  }

  /** The live model if any, else a demo model that calls tools with {@code demoToolArgs}. */
  public static BaseLlm model(
      Function<LlmRequest, String> demoReply, Map<String, Map<String, Object>> demoToolArgs) {
    String live = liveModel();
    if (live != null) {
      return LlmRegistry.resolve(live);
    }
    return DemoModel.replying(demoReply, demoToolArgs);
  }

  /**
   * The live model if any, else a demo model that calls all the agent's tools at once (several
   * function calls in one response) with {@code demoToolArgs}.
   */
  public static BaseLlm modelCallingAllTools(
      Function<LlmRequest, String> demoReply, Map<String, Map<String, Object>> demoToolArgs) {
    String live = liveModel();
    if (live != null) {
      return LlmRegistry.resolve(live);
    }
    return DemoModel.callingAllTools(demoReply, demoToolArgs);
  }

  private static boolean isSet(@Nullable String s) {
    return s != null && !s.isBlank();
  }
}
