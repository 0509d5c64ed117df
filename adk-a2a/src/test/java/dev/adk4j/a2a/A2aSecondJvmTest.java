package dev.adk4j.a2a;

import static dev.adk4j.a2a.A2aFixtures.lastText;
import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.agents.RunConfig;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.testsupport.Contents;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The remote adk4j agent in another JVM ({@link A2aServerMain}), its sessions in a SQLite file: two
 * turns of a local session reach it as one A2A context, whose session the file holds once the child
 * has stopped.
 */
class A2aSecondJvmTest {

  @TempDir Path dir;

  @Test
  void aRemoteInAnotherJvm_keepsTheConversationInItsSessionStore() throws Exception {
    Path db = dir.resolve("remote.db");
    Process child =
        new ProcessBuilder(A2aServerMain.command(db))
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    String contextId;
    try {
      String line =
          new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))
              .readLine();
      assertThat(line).as("the child JVM's first line").startsWith("listening ");
      RemoteA2aAgent remote =
          RemoteA2aAgent.builder()
              .name("helper")
              .url(line.substring("listening ".length()))
              .build();
      Runner runner = new InMemoryRunner(remote, "app");
      RunConfig create = RunConfig.builder().autoCreateSession(true).build();

      assertThat(
              lastText(
                  runner.runAsync("u", "s", Contents.user("one"), create).toList().blockingGet()))
          .isEqualTo("turn 1: one");
      assertThat(
              lastText(
                  runner.runAsync("u", "s", Contents.user("two"), create).toList().blockingGet()))
          .isEqualTo("turn 2: two");
      contextId =
          (String)
              runner
                  .sessionService()
                  .getSession("app", "u", "s", java.util.Optional.empty())
                  .blockingGet()
                  .state()
                  .get(remote.contextStateKey());
    } finally {
      child.getOutputStream().close(); // the child stops when its stdin ends
      if (!child.waitFor(30, TimeUnit.SECONDS)) {
        child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
    try (DatabaseSessionService stored = new DatabaseSessionService("jdbc:sqlite:" + db)) {
      Session session = A2aFixtures.remoteSession(stored, contextId);
      assertThat(session.state()).containsEntry("turns", 2);
    }
  }
}
