package dev.adk4j.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StateScopingExampleTest {

  @Test
  void secondSessionSharesAppAndUserState_andKeepsItsOwnContext() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    InMemorySessionService sessions = new InMemorySessionService();

    Session s2 =
        StateScopingExample.run(sessions, new PrintStream(bytes, true, StandardCharsets.UTF_8));

    assertThat(s2.state())
        .containsEntry("app:theme", "dark")
        .containsEntry("user:language", "en")
        .containsEntry("context", "session2");
    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertThat(printed)
        .contains("s2 app:theme     = dark")
        .contains("s2 user:language = en")
        .contains("s2 context       = session2")
        .contains("s1 context       = session1")
        .contains("State scoping works correctly!")
        .doesNotContain("BROKEN");
  }
}
