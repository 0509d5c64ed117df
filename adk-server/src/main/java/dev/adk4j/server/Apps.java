package dev.adk4j.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.adk4j.runner.Runner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** The apps the server runs, by name: lookup with a clear 404, and the {@code /list-apps} body. */
final class Apps {
  private final Map<String, Runner> runners;
  private final Map<String, AdkServer.ClientPolicy> policies;

  Apps(Map<String, Runner> runners, Map<String, AdkServer.ClientPolicy> policies) {
    this.runners = runners;
    this.policies = policies;
  }

  /** What clients may write into the app's sessions (the default policy for an unknown app). */
  AdkServer.ClientPolicy policy(String app) {
    return policies.getOrDefault(app, AdkServer.ClientPolicy.defaults());
  }

  Set<String> names() {
    return runners.keySet();
  }

  /**
   * The app's runner.
   *
   * @throws HttpError 404 naming the app and the apps there are
   */
  Runner runner(String app) {
    Runner r = runners.get(app);
    if (r == null) {
      throw HttpError.notFound("app '" + app + "' not found; apps: " + sortedNames());
    }
    return r;
  }

  /** The app names, sorted; with {@code detailed}, each app's root agent and description. */
  JsonNode list(boolean detailed) {
    List<String> names = sortedNames();
    if (!detailed) {
      return Wire.strings(names);
    }
    ObjectNode out = Wire.MAPPER.createObjectNode();
    ArrayNode apps = out.putArray("apps");
    for (String name : names) {
      Runner r = Objects.requireNonNull(runners.get(name), name);
      ObjectNode a = apps.addObject();
      a.put("name", name);
      a.put("rootAgentName", r.agent().name());
      a.put("description", r.agent().description());
      a.put("language", "java");
    }
    return out;
  }

  private List<String> sortedNames() {
    List<String> names = new ArrayList<>(runners.keySet());
    names.sort(null);
    return names;
  }
}
