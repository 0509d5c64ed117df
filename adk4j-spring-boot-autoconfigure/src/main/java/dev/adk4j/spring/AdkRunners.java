package dev.adk4j.spring;

import dev.adk4j.runner.Runner;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The application's {@link Runner}s, one per app, by app name: the auto-configuration builds one
 * for each {@link AdkApp} bean and each root agent bean, and takes {@code Runner} beans the
 * application declares itself as they are. Inject it to run turns ({@code
 * runners.get("weather").runAsync(...)}) or, with one app, {@link #single()}. Immutable and
 * thread-safe; {@link #close()} closes the runners it built (their toolsets), never the
 * application's own.
 */
public final class AdkRunners implements AutoCloseable {
  private final Map<String, Runner> runners;
  private final List<Runner> owned;

  AdkRunners(Map<String, Runner> runners, List<Runner> owned) {
    this.runners = Collections.unmodifiableMap(new LinkedHashMap<>(runners));
    this.owned = List.copyOf(owned);
  }

  /**
   * The runner of app {@code app}.
   *
   * @throws IllegalArgumentException naming the app and the apps there are, if there is none
   */
  public Runner get(String app) {
    Objects.requireNonNull(app, "app");
    Runner r = runners.get(app);
    if (r == null) {
      throw new IllegalArgumentException("no app '" + app + "'; apps: " + runners.keySet());
    }
    return r;
  }

  /**
   * The runner of the application's only app.
   *
   * @throws IllegalStateException naming the apps, if there is not exactly one
   */
  public Runner single() {
    if (runners.size() != 1) {
      throw new IllegalStateException(
          "expected exactly one app, found " + runners.size() + ": " + runners.keySet());
    }
    return runners.values().iterator().next();
  }

  /** The app names, in the order the apps were found. */
  public Set<String> names() {
    return runners.keySet();
  }

  /** Every runner by app name (read only). */
  public Map<String, Runner> asMap() {
    return runners;
  }

  /** Closes the runners this built (their agents' toolsets); idempotent. */
  @Override
  public void close() {
    for (Runner r : owned) {
      r.close();
    }
  }

  @Override
  public String toString() {
    return "AdkRunners" + runners.keySet();
  }
}
