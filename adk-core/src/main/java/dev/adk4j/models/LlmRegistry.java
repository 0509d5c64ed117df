package dev.adk4j.models;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Turns model names (as given to {@code LlmAgent.builder().model(String)}) into {@link BaseLlm}s.
 * Names matching {@code gemini-.*} resolve to {@link Gemini} by default; {@link #register} adds or
 * overrides a pattern. Resolved models are cached per name. Thread-safe.
 */
public final class LlmRegistry {
  private static final Map<String, Function<String, BaseLlm>> FACTORIES = new ConcurrentHashMap<>();
  private static final Map<String, BaseLlm> CACHE = new ConcurrentHashMap<>();

  static {
    register("gemini-.*", Gemini::create);
  }

  private LlmRegistry() {}

  /** Resolves names matching the regular expression {@code pattern} with {@code factory}. */
  public static void register(String pattern, Function<String, BaseLlm> factory) {
    Pattern.compile(pattern); // fail fast on a bad pattern
    FACTORIES.put(pattern, Objects.requireNonNull(factory, "factory"));
    CACHE.clear();
  }

  /**
   * The model for {@code name}.
   *
   * @throws IllegalArgumentException if no registered pattern matches
   */
  public static BaseLlm resolve(String name) {
    Objects.requireNonNull(name, "name");
    return CACHE.computeIfAbsent(
        name,
        n -> {
          for (Map.Entry<String, Function<String, BaseLlm>> e : FACTORIES.entrySet()) {
            if (n.matches(e.getKey())) {
              return e.getValue().apply(n);
            }
          }
          throw new IllegalArgumentException(
              "No model registered for '" + n + "'; known patterns: " + FACTORIES.keySet());
        });
  }
}
