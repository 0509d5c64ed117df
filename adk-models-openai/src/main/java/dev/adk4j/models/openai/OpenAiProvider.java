package dev.adk4j.models.openai;

import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmProvider;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Resolves {@code openai/<model>}, {@code ollama/<model>}, {@code vllm/<model>} and {@code
 * lmstudio/<model>} names for {@link dev.adk4j.models.LlmRegistry} (found by {@link
 * java.util.ServiceLoader}):
 *
 * <ul>
 *   <li>{@code openai}: {@code OPENAI_API_KEY}, and {@code OPENAI_BASE_URL} when set (any
 *       compatible server, Azure OpenAI's {@code .../openai/v1} included); one of them is required.
 *   <li>{@code ollama}: {@code OLLAMA_BASE_URL}, default {@code http://localhost:11434/v1}; no key.
 *   <li>{@code vllm}: {@code VLLM_BASE_URL}, default {@code http://localhost:8000/v1}; {@code
 *       VLLM_API_KEY} if the server asks for one.
 *   <li>{@code lmstudio}: {@code LMSTUDIO_BASE_URL}, default {@code http://localhost:1234/v1}.
 * </ul>
 */
public final class OpenAiProvider implements LlmProvider {

  /** For {@link java.util.ServiceLoader}. */
  public OpenAiProvider() {}

  @Override
  public List<String> schemes() {
    return List.of("openai", "ollama", "vllm", "lmstudio");
  }

  @Override
  public BaseLlm create(
      String scheme, String modelName, Function<String, @Nullable String> environment) {
    OpenAiModel.Builder b = OpenAiModel.builder().modelName(modelName).environment(environment);
    switch (scheme) {
      case "openai" -> {
        return b.build();
      }
      case "ollama" -> {
        return local(b, environment, "OLLAMA_BASE_URL", "http://localhost:11434/v1", null);
      }
      case "vllm" -> {
        return local(b, environment, "VLLM_BASE_URL", "http://localhost:8000/v1", "VLLM_API_KEY");
      }
      case "lmstudio" -> {
        return local(b, environment, "LMSTUDIO_BASE_URL", "http://localhost:1234/v1", null);
      }
      default ->
          throw new IllegalArgumentException("OpenAiProvider has no scheme '" + scheme + "'");
    }
  }

  private static OpenAiModel local(
      OpenAiModel.Builder b,
      Function<String, @Nullable String> environment,
      String urlVariable,
      String defaultUrl,
      @Nullable String keyVariable) {
    String url = environment.apply(urlVariable);
    b.baseUrl(url == null || url.isBlank() ? defaultUrl : url);
    String key = keyVariable == null ? null : environment.apply(keyVariable);
    b.apiKey(key == null || key.isBlank() ? OpenAiModel.NO_KEY : key);
    return b.build();
  }
}
