package dev.adk4j.models;

import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A model provider module's entry in {@link LlmRegistry}: it resolves names of the form {@code
 * scheme/model} (such as {@code openai/gpt-4o-mini}) for its schemes. Providers are found with
 * {@link java.util.ServiceLoader} (a {@code META-INF/services/dev.adk4j.models.LlmProvider} file in
 * the provider's module), so adding the module to the classpath is all it takes.
 *
 * <p>Implementations are thread-safe and have a public no-argument constructor.
 */
public interface LlmProvider {

  /** The schemes this provider resolves, lower case, such as {@code openai} and {@code ollama}. */
  List<String> schemes();

  /**
   * The model {@code modelName} of {@code scheme}, configured from {@code environment} (API keys,
   * base URLs).
   *
   * @throws IllegalStateException naming the missing environment variable when one is required
   */
  BaseLlm create(String scheme, String modelName, Function<String, @Nullable String> environment);
}
