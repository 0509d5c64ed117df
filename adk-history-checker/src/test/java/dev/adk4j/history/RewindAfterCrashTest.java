package dev.adk4j.history;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.Session;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the history checker found about rewinds, reproduced without faults: a turn whose process
 * died after its function call was stored leaves the call unanswered; the next turn answers it
 * (code {@code INTERRUPTED}), but a rewind appended first does not, and after it the next turns
 * only look at the last invocation (the rewind), so the call is never answered.
 */
class RewindAfterCrashTest {

  @TempDir Path dir;

  private static final String APP = "rewind_after_crash";

  private static Content message(String op) throws Exception {
    return Content.fromParts(
            Part.fromText(Worker.message(op, List.of(new Step(Step.WRITE, "k0", op)))))
        .toBuilder()
        .role("user")
        .build();
  }

  /** A session with one whole turn, then a turn whose process died after storing its call. */
  private static String crashedTurn(DatabaseSessionService sessions, Runner runner)
      throws Exception {
    sessions.createSession(APP, "u", null, "s").blockingGet();
    String first =
        runner.runAsync("u", "s", message("p-1")).toList().blockingGet().get(0).invocationId();
    Session s = sessions.getSession(APP, "u", "s").blockingGet();
    sessions
        .appendEvent(
            s,
            Event.builder().invocationId("crashed").author("user").content(message("p-2")).build())
        .blockingGet();
    sessions
        .appendEvent(
            s,
            Event.builder()
                .invocationId("crashed")
                .author("p")
                .content(
                    Content.builder()
                        .role("model")
                        .parts(
                            Part.builder()
                                .functionCall(
                                    FunctionCall.builder().id("call-1").name("apply").build())
                                .build())
                        .build())
                .build())
        .blockingGet();
    return first;
  }

  private static Set<String> unansweredCalls(DatabaseSessionService sessions) {
    Set<String> calls = new HashSet<>();
    Set<String> answered = new HashSet<>();
    for (Event e : sessions.getSession(APP, "u", "s").blockingGet().events()) {
      e.functionCalls().forEach(fc -> calls.add(fc.id().orElse("?")));
      e.functionResponses().forEach(fr -> answered.add(fr.id().orElse("?")));
    }
    calls.removeAll(answered);
    return calls;
  }

  @Test
  void nextTurn_answersTheCallACrashedTurnLeft() throws Exception {
    try (DatabaseSessionService sessions =
        new DatabaseSessionService("jdbc:sqlite:" + dir.resolve("s.db"))) {
      Runner runner = new Runner(Worker.agent("p"), APP, null, sessions);
      crashedTurn(sessions, runner);
      runner.runAsync("u", "s", message("p-3")).toList().blockingGet();
      assertThat(unansweredCalls(sessions)).isEmpty();
    }
  }

  /** Fixed: Runner.rewind closes a crashed turn's unanswered calls before it rewinds. */
  @Test
  void rewindThenNextTurn_answerTheCallACrashedTurnLeft() throws Exception {
    try (DatabaseSessionService sessions =
        new DatabaseSessionService("jdbc:sqlite:" + dir.resolve("s.db"))) {
      Runner runner = new Runner(Worker.agent("p"), APP, null, sessions);
      String first = crashedTurn(sessions, runner);
      runner.rewind("u", "s", first).blockingGet();
      runner.runAsync("u", "s", message("p-3")).toList().blockingGet();
      assertThat(unansweredCalls(sessions)).isEmpty();
    }
  }
}
