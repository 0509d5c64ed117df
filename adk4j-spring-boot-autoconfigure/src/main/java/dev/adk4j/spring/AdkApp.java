package dev.adk4j.spring;

import dev.adk4j.agents.BaseAgent;
import dev.adk4j.plugins.BasePlugin;
import dev.adk4j.runner.EventsCompactionConfig;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An app for the auto-configuration to run: a root agent under an app name, with plugins and a
 * compaction of its own. Declare one as a bean when the app name should differ from the agent's
 * name, or when the app needs plugins or compaction the others do not have; a plain {@link
 * BaseAgent} bean that is no other agent bean's sub-agent is an app too, named after the agent.
 *
 * @param name the app name sessions are stored under and the REST API lists; non-blank, no {@code
 *     /}
 * @param rootAgent the agent a turn starts with
 * @param plugins added after the plugin beans every runner gets
 * @param compaction this app's compaction; null takes the application's ({@code adk4j.compaction.*}
 *     or an {@code EventsCompactionConfig} bean), if any
 */
public record AdkApp(
    String name,
    BaseAgent rootAgent,
    List<BasePlugin> plugins,
    @Nullable EventsCompactionConfig compaction) {

  /**
   * @throws IllegalArgumentException if the name is blank or has a {@code /}
   */
  public AdkApp {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(rootAgent, "rootAgent");
    if (name.isBlank() || name.contains("/")) {
      throw new IllegalArgumentException(
          "an app name must be non-blank without '/', got '" + name + "'");
    }
    plugins = List.copyOf(plugins);
  }

  /** The agent as the app {@code name}, with no plugins of its own. */
  public static AdkApp of(String name, BaseAgent rootAgent) {
    return new AdkApp(name, rootAgent, List.of(), null);
  }
}
