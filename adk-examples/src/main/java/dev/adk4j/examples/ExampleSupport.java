package dev.adk4j.examples;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Small helpers the examples share. */
final class ExampleSupport {
  private ExampleSupport() {}

  /** The user's message {@code text}. */
  static Content userMessage(String text) {
    return Content.builder().role("user").parts(List.of(Part.fromText(text))).build();
  }

  /** A model response with the text {@code text}. */
  static dev.adk4j.models.LlmResponse modelText(String text) {
    return dev.adk4j.models.LlmResponse.builder()
        .content(Content.builder().role("model").parts(List.of(Part.fromText(text))).build())
        .build();
  }

  /** Runs one invocation, printing the user's message and each event as it comes. */
  static List<Event> run(
      Runner runner, String userId, String sessionId, String text, Transcript t) {
    t.say("[user] " + text);
    List<Event> events = new ArrayList<>();
    runner
        .runAsync(userId, sessionId, userMessage(text), RunConfig.builder().build())
        .blockingForEach(
            e -> {
              events.add(e);
              t.event(e);
            });
    return events;
  }

  /** Creates a fresh session with {@code id}, deleting an earlier one of that id. */
  static Session freshSession(
      BaseSessionService sessions,
      String app,
      String user,
      String id,
      @Nullable Map<String, Object> initialState) {
    sessions.deleteSession(app, user, id).blockingAwait();
    return sessions.createSession(app, user, initialState, id).blockingGet();
  }

  /** Reloads a session from storage. */
  static Session load(BaseSessionService sessions, String app, String user, String id) {
    return sessions.getSession(app, user, id).blockingGet();
  }

  /**
   * Deletes the SQLite database {@code file} and its WAL and shared-memory files, so that an
   * example that keeps its own store starts afresh on every run.
   */
  static void deleteSqliteFile(Path file) {
    try {
      for (String suffix : List.of("", "-wal", "-shm")) {
        Files.deleteIfExists(file.resolveSibling(file.getFileName() + suffix));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete " + file, e);
    }
  }
}
