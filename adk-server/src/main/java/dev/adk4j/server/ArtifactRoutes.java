package dev.adk4j.server;

import static dev.adk4j.server.Exchanges.requireMethod;
import static dev.adk4j.server.Exchanges.sendJson;

import com.google.genai.types.Part;
import com.sun.net.httpserver.HttpExchange;
import dev.adk4j.artifacts.BaseArtifactService;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /apps/{app}/users/{user}/sessions/{id}/artifacts[/{name}[/versions[/{v}]]]}: list, load
 * (latest or a version) and delete a session's artifacts.
 */
final class ArtifactRoutes {
  private final BaseArtifactService artifacts;
  private final SessionRoutes sessions;

  ArtifactRoutes(BaseArtifactService artifacts, SessionRoutes sessions) {
    this.artifacts = artifacts;
    this.sessions = sessions;
  }

  /** Answers a path under the session's {@code artifacts}; {@code rest} is what follows it. */
  void handle(
      HttpExchange ex,
      String method,
      String app,
      String user,
      String id,
      List<String> rest,
      Map<String, String> query)
      throws IOException {
    sessions.requireSession(app, user, id, 0);
    int n = rest.size();
    if (n == 0) {
      requireMethod(method, "GET");
      List<String> names = artifacts.listArtifactKeys(app, user, id).blockingGet().filenames();
      sendJson(ex, 200, Wire.strings(names));
      return;
    }
    String name = rest.get(0);
    if (n == 1) {
      if (method.equals("DELETE")) {
        artifacts.deleteArtifact(app, user, id, name).blockingAwait();
        ex.sendResponseHeaders(204, -1);
        return;
      }
      requireMethod(method, "GET");
      String v = query.get("version");
      send(ex, app, user, id, name, v == null ? Optional.empty() : Optional.of(version(v)));
      return;
    }
    if (rest.get(1).equals("versions")) {
      requireMethod(method, "GET");
      if (n == 2) {
        List<Integer> versions = artifacts.listVersions(app, user, id, name).blockingGet();
        sendJson(ex, 200, Wire.array(versions));
        return;
      }
      if (n == 3) {
        send(ex, app, user, id, name, Optional.of(version(rest.get(2))));
        return;
      }
    }
    throw HttpError.notFound("no endpoint " + method + " for artifact '" + name + "'");
  }

  private static int version(String v) {
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw HttpError.badRequest("an artifact version is a number, got '" + v + "'");
    }
  }

  private void send(
      HttpExchange ex, String app, String user, String id, String name, Optional<Integer> version)
      throws IOException {
    Part part = artifacts.loadArtifact(app, user, id, name, version).blockingGet();
    if (part == null) {
      throw HttpError.notFound(
          "artifact '"
              + name
              + "'"
              + version.map(v -> " version " + v).orElse("")
              + " not found in session '"
              + id
              + "'");
    }
    sendJson(ex, 200, Wire.MAPPER.valueToTree(part));
  }
}
