package dev.adk4j.server;

import static dev.adk4j.server.Exchanges.readBody;
import static dev.adk4j.server.Exchanges.requireMethod;
import static dev.adk4j.server.Exchanges.sendJson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.types.Part;
import com.sun.net.httpserver.HttpExchange;
import dev.adk4j.artifacts.BaseArtifactService;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /apps/{app}/users/{user}/sessions/{id}/artifacts[/{name}[/versions[/{v}][/metadata]]]}:
 * list, save, load (latest or a version), describe and delete a session's artifacts.
 */
final class ArtifactRoutes {
  private final BaseArtifactService artifacts;
  private final SessionRoutes sessions;
  private final ServerConfig config;

  ArtifactRoutes(BaseArtifactService artifacts, SessionRoutes sessions, ServerConfig config) {
    this.artifacts = artifacts;
    this.sessions = sessions;
    this.config = config;
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
    int n = rest.size();
    if (n == 1 && method.equals("DELETE")) {
      // ADK's answer: 200 with null, whether or not it (or its session) was there
      artifacts.deleteArtifact(app, user, id, rest.get(0)).blockingAwait();
      sendJson(ex, 200, NullNode.getInstance());
      return;
    }
    sessions.requireSession(app, user, id, 0);
    if (n == 0) {
      requireMethod(method, "GET", "POST");
      if (method.equals("POST")) {
        save(ex, app, user, id);
        return;
      }
      List<String> names = artifacts.listArtifactKeys(app, user, id).blockingGet().filenames();
      sendJson(ex, 200, Wire.strings(names));
      return;
    }
    String name = rest.get(0);
    if (n == 1) {
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
      if (n == 3 && rest.get(2).equals("metadata")) {
        ArrayNode out = Wire.MAPPER.createArrayNode();
        for (int v : artifacts.listVersions(app, user, id, name).blockingGet()) {
          Part part = artifacts.loadArtifact(app, user, id, name, Optional.of(v)).blockingGet();
          if (part != null) {
            out.add(metadata(app, user, id, name, v, part));
          }
        }
        sendJson(ex, 200, out);
        return;
      }
      if (n == 3) {
        send(ex, app, user, id, name, Optional.of(version(rest.get(2))));
        return;
      }
      if (n == 4 && rest.get(3).equals("metadata")) {
        int v = version(rest.get(2));
        Part part = artifacts.loadArtifact(app, user, id, name, Optional.of(v)).blockingGet();
        if (part == null) {
          throw HttpError.notFound(
              "artifact '" + name + "' version " + v + " not found in session '" + id + "'");
        }
        sendJson(ex, 200, metadata(app, user, id, name, v, part));
        return;
      }
    }
    throw HttpError.notFound("no endpoint " + method + " for artifact '" + name + "'");
  }

  /** {@code POST .../artifacts} with {@code {filename, artifact, customMetadata?}}. */
  private void save(HttpExchange ex, String app, String user, String id) throws IOException {
    ObjectNode body =
        Wire.object(Wire.parse(readBody(ex, config.maxBodyBytes())), "the request body");
    if (body == null) {
      throw HttpError.invalid("missing", "a save needs a body: {filename, artifact}", "body");
    }
    String filename = Wire.requiredText(body, "filename", "file_name");
    JsonNode artifact = Wire.field(body, "artifact");
    if (artifact == null) {
      throw HttpError.invalid("missing", "'artifact' is required: a Part", "body", "artifact");
    }
    if (!artifact.isObject()) {
      throw HttpError.invalid(
          "model_attributes_type",
          "'artifact' must be a Part object, got " + Wire.kind(artifact),
          "body",
          "artifact");
    }
    Wire.map(Wire.field(body, "customMetadata", "custom_metadata"), "customMetadata");
    Part part;
    try {
      part = Wire.MAPPER.treeToValue(Wire.standardBase64(artifact.deepCopy()), Part.class);
    } catch (IOException | IllegalArgumentException e) {
      throw HttpError.invalid(
          "model_type", "'artifact' is not a valid Part" + Wire.where(e), "body", "artifact");
    }
    int version = artifacts.saveArtifact(app, user, id, filename, part).blockingGet();
    sendJson(ex, 200, metadata(app, user, id, filename, version, part));
  }

  /**
   * ADK's {@code ArtifactVersion} of a stored version: {@code version}, {@code canonicalUri},
   * {@code customMetadata} (always empty: adk4j's artifact services keep none), {@code mimeType} of
   * inline data. No {@code createTime}: the artifact services do not record one.
   */
  private static ObjectNode metadata(
      String app, String user, String id, String name, int version, Part part) {
    ObjectNode m = Wire.MAPPER.createObjectNode();
    m.put("version", version);
    m.put(
        "canonicalUri",
        "artifact://apps/"
            + enc(app)
            + "/users/"
            + enc(user)
            + "/sessions/"
            + enc(id)
            + "/artifacts/"
            + enc(name)
            + "/versions/"
            + version);
    m.putObject("customMetadata");
    part.inlineData().flatMap(b -> b.mimeType()).ifPresent(t -> m.put("mimeType", t));
    part.fileData().flatMap(f -> f.mimeType()).ifPresent(t -> m.put("mimeType", t));
    return m;
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static int version(String v) {
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw HttpError.invalid(
          "int_parsing", "an artifact version is a number, got '" + v + "'", "path", "version_id");
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
