package dev.adk4j.examples;

import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.Gemini;
import dev.adk4j.models.LlmRequest;
import java.util.Map;
import java.util.function.Function;

/**
 * Which model the examples use: Gemini ({@code gemini-2.5-flash}, or {@code ADK4J_MODEL}) when
 * {@code GOOGLE_API_KEY} or {@code GEMINI_API_KEY} is set, else the built-in {@link DemoModel}.
 */
public final class ExampleModels {
  private ExampleModels() {}

  /** The default Gemini model of the examples. */
  public static final String DEFAULT_GEMINI = "gemini-2.5-flash";

  /**
   * Whether a Gemini API key is set in the environment (and the system property {@code adk4j.demo}
   * does not force the demo model).
   */
  public static boolean geminiAvailable() {
    if (Boolean.getBoolean("adk4j.demo")) {
      return false; // forced offline, as the tests do
    }
    return isSet(System.getenv(Gemini.GOOGLE_API_KEY))
        || isSet(System.getenv(Gemini.GEMINI_API_KEY));
  }

  /** A one-line description of the model choice, for the transcript. */
  public static String describe() {
    return geminiAvailable()
        ? "Model: Gemini " + geminiName() + " (an API key is set)."
        : "Model: the built-in demo model ("
            + DemoModel.NAME
            + "): no GOOGLE_API_KEY or "
            + "GEMINI_API_KEY is set, so replies are scripted and deterministic, not generated.";
  }

  /** Gemini if available, else a demo model answering with {@code demoReply}. */
  public static BaseLlm model(Function<LlmRequest, String> demoReply) {
    return model(demoReply, Map.of());
  }

  /** Gemini if available, else a demo model that calls tools with {@code demoToolArgs}. */
  public static BaseLlm model(
      Function<LlmRequest, String> demoReply, Map<String, Map<String, Object>> demoToolArgs) {
    if (geminiAvailable()) {
      return Gemini.create(geminiName());
    }
    return DemoModel.replying(demoReply, demoToolArgs);
  }

  /**
   * Gemini if available, else a demo model that calls all the agent's tools at once (several
   * function calls in one response) with {@code demoToolArgs}.
   */
  public static BaseLlm modelCallingAllTools(
      Function<LlmRequest, String> demoReply, Map<String, Map<String, Object>> demoToolArgs) {
    if (geminiAvailable()) {
      return Gemini.create(geminiName());
    }
    return DemoModel.callingAllTools(demoReply, demoToolArgs);
  }

  private static String geminiName() {
    String name = System.getenv("ADK4J_MODEL");
    return isSet(name) ? name : DEFAULT_GEMINI;
  }

  private static boolean isSet(String s) {
    return s != null && !s.isBlank();
  }
}
