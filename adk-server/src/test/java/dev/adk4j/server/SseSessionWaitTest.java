package dev.adk4j.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.SessionLease;
import dev.adk4j.testing.ScriptedLlm;
import java.io.BufferedReader;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client whose run has to wait for its session (another instance holds the session's lease) is
 * told so in the event stream, as an SSE comment line that EventSource clients ignore, before its
 * events; the comment names no holder (no host or process id reaches a client).
 */
class SseSessionWaitTest {
  @TempDir Path dir;

  @Test
  void aRunWaitingForItsSession_saysSoInTheStream_thenRuns() throws Exception {
    try (DatabaseSessionService sessions =
        new DatabaseSessionService("jdbc:sqlite:" + dir.resolve("wait.db"))) {
      sessions.createSession("app", "u", null, "s").blockingGet();
      AdkServer server =
          AdkServer.builder()
              .app(
                  "app",
                  LlmAgent.builder()
                      .name("bot")
                      .model(ScriptedLlm.builder().thenText("at last").build())
                      .instruction("Answer.")
                      .build())
              .sessionService(sessions)
              .port(0)
              .sseHeartbeat(Duration.ofSeconds(30))
              .start();
      // Another instance's turn, as far as this server can tell: the session's lease is held.
      SessionLease other =
          sessions.acquireLease("app", "u", "s", Duration.ofSeconds(5)).blockingGet();
      try (server;
          Socket socket = new Socket(server.url().getHost(), server.port())) {
        socket.setSoTimeout(30_000);
        BufferedReader in =
            ServerClient.postRunSse(
                socket, server.port(), ServerClient.runBody("app", "u", "s", "hello", true));
        assertThat(in.readLine()).startsWith("HTTP/1.1 200");
        String line;
        while ((line = in.readLine()) != null && !line.startsWith(": waiting")) {
          assertThat(line).doesNotStartWith("data: ");
        }
        assertThat(line).as("a comment saying the run waits for its session").isNotNull();
        assertThat(line).contains("session 's'").doesNotContain(other.owner()).doesNotContain("@");
        other.close(); // the other turn ends: this run goes on
        List<String> data = new ArrayList<>();
        while ((line = in.readLine()) != null && !line.equals("0")) {
          if (line.startsWith("data: ")) {
            data.add(line);
          }
        }
        assertThat(String.join("\n", data)).contains("at last");
      }
    }
  }
}
