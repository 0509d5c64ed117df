package dev.adk4j.models;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Turns model names (as given to {@code LlmAgent.builder().model(String)}) into {@link BaseLlm}s.
 *
 * <ol>
 *   <li>Names matching a pattern given to {@link #register} resolve with its factory; {@code
 *       gemini-.*} resolves to {@link Gemini#create} by default.
 *   <li>Names of the form {@code scheme/model} resolve through the {@link LlmProvider} of that
 *       scheme found on the classpath ({@code gemini/...} is built in; {@code openai/...}, {@code
 *       ollama/...}, {@code vllm/...} and {@code lmstudio/...} come with {@code
 *       dev.adk4j:adk-models-openai}, {@code anthropic/...} with {@code
 *       dev.adk4j:adk-models-anthropic}). A known scheme whose module is missing fails naming the
 *       module to add; a provider fails naming the environment variable it misses.
 * </ol>
 *
 * Resolved models are cached per name. Thread-safe. See {@code docs/models.md}.
 */
public final class LlmRegistry {
  private static final Map<String, Function<String, BaseLlm>> FACTORIES = new ConcurrentHashMap<>();
  private static final Map<String, BaseLlm> CACHE = new ConcurrentHashMap<>();

  /** The schemes of adk4j's provider modules, to name the module when it is missing. */
  private static final Map<String, String> MODULES = new LinkedHashMap<>();

  private static volatile @Nullable Map<String, LlmProvider> providers;

  static {
    register("gemini-.*", Gemini::create);
    for (String s : new String[] {"openai", "ollama", "vllm", "lmstudio"}) {
      MODULES.put(s, "dev.adk4j:adk-models-openai");
    }
    MODULES.put("anthropic", "dev.adk4j:adk-models-anthropic");
  }

  private LlmRegistry() {}

  /** Resolves names matching the regular expression {@code pattern} with {@code factory}. */
  public static void register(String pattern, Function<String, BaseLlm> factory) {
    Pattern.compile(pattern); // fail fast on a bad pattern
    FACTORIES.put(pattern, Objects.requireNonNull(factory, "factory"));
    CACHE.clear();
  }

  /** ADK for Java's factory of models by name, for {@link #registerLlm}. */
  @FunctionalInterface
  public interface LlmFactory {
    BaseLlm create(String modelName);
  }

  /** ADK for Java's spelling of {@link #register}. */
  public static void registerLlm(String pattern, LlmFactory factory) {
    Objects.requireNonNull(factory, "factory");
    register(pattern, factory::create);
  }

  /** ADK for Java's spelling of {@link #resolve}. */
  public static BaseLlm getLlm(String name) {
    return resolve(name);
  }

  /**
   * The model for {@code name}, configured from the process environment; cached per name.
   *
   * @throws IllegalArgumentException if no registered pattern matches and no provider has the
   *     name's scheme (the message names the module to add when the scheme is a known one)
   * @throws IllegalStateException if the provider misses an environment variable (named)
   */
  public static BaseLlm resolve(String name) {
    Objects.requireNonNull(name, "name");
    return CACHE.computeIfAbsent(name, n -> create(n, System::getenv));
  }

  /**
   * A new model for {@code name} (not cached), with environment variables read from {@code
   * environment} instead of the process environment: {@code Map.of("OPENAI_API_KEY", "k")::get}.
   *
   * @throws IllegalArgumentException as {@link #resolve}
   * @throws IllegalStateException as {@link #resolve}
   */
  public static BaseLlm create(String name, Function<String, @Nullable String> environment) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(environment, "environment");
    for (Map.Entry<String, Function<String, BaseLlm>> e : FACTORIES.entrySet()) {
      if (name.matches(e.getKey())) {
        return e.getValue().apply(name);
      }
    }
    int slash = name.indexOf('/');
    if (slash > 0) {
      String scheme = name.substring(0, slash).toLowerCase(Locale.ROOT);
      String model = name.substring(slash + 1);
      if (model.isBlank()) {
        throw new IllegalArgumentException(
            "Model name '" + name + "' has no model after '" + scheme + "/'");
      }
      if (scheme.equals("gemini")) {
        return Gemini.builder().modelName(model).environment(environment).build();
      }
      LlmProvider provider = providers().get(scheme);
      if (provider != null) {
        return provider.create(scheme, model, environment);
      }
      String module = MODULES.get(scheme);
      if (module != null) {
        throw new IllegalArgumentException(
            "Model '"
                + name
                + "' needs the module "
                + module
                + " on the classpath (add it as a dependency; its version comes with"
                + " dev.adk4j:adk4j-bom)");
      }
    }
    TreeSet<String> schemes = new TreeSet<>(providers().keySet());
    schemes.add("gemini");
    throw new IllegalArgumentException(
        "No model registered for '"
            + name
            + "'; known patterns: "
            + FACTORIES.keySet()
            + ", schemes on the classpath: "
            + schemes
            + " (as in 'openai/gpt-4o-mini'; see docs/models.md)");
  }

  private static Map<String, LlmProvider> providers() {
    Map<String, LlmProvider> found = providers;
    if (found == null) {
      Map<String, LlmProvider> map = new LinkedHashMap<>();
      for (LlmProvider p :
          ServiceLoader.load(LlmProvider.class, LlmRegistry.class.getClassLoader())) {
        for (String scheme : p.schemes()) {
          map.putIfAbsent(scheme.toLowerCase(Locale.ROOT), p);
        }
      }
      found = Map.copyOf(map);
      providers = found;
    }
    return found;
  }
}
