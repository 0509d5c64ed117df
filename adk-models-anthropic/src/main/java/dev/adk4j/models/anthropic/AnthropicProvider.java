package dev.adk4j.models.anthropic;

import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmProvider;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Resolves {@code anthropic/<model>} names for {@link dev.adk4j.models.LlmRegistry} (found by
 * {@link java.util.ServiceLoader}): {@code ANTHROPIC_API_KEY} (required), {@code
 * ANTHROPIC_BASE_URL} when set.
 */
public final class AnthropicProvider implements LlmProvider {

  /** For {@link java.util.ServiceLoader}. */
  public AnthropicProvider() {}

  @Override
  public List<String> schemes() {
    return List.of("anthropic");
  }

  @Override
  public BaseLlm create(
      String scheme, String modelName, Function<String, @Nullable String> environment) {
    if (!scheme.equals("anthropic")) {
      throw new IllegalArgumentException("AnthropicProvider has no scheme '" + scheme + "'");
    }
    return AnthropicModel.builder().modelName(modelName).environment(environment).build();
  }
}
