package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventCompaction;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import io.reactivex.rxjava3.core.Maybe;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Event compaction: what the model receives, and what stays stored. (The agent's own history
 * windows, {@code includeContents} and {@code historyWindow}, are tested in adk-agents' {@code
 * LlmAgentHistoryTest}.)
 */
class CompactionTest {

  static final String APP = "app";
  static final String USER = "u";

  final InMemorySessionService sessions = new InMemorySessionService();

  /** A model that echoes the last user text; records every request. */
  final ScriptedLlm echo =
      ScriptedLlm.answering(req -> ScriptedLlm.textResponse("echo " + Contents.lastUserText(req)));

  LlmAgent agent() {
    return LlmAgent.builder().name("A").model(echo).instruction("Be brief.").build();
  }

  void turn(Runner runner, String text) {
    runner.runAsync(USER, "s", Contents.user(text)).blockingSubscribe();
  }

  List<Event> stored() {
    return sessions.listEvents(APP, USER, "s").blockingGet().events();
  }

  static Content summaryContent(String text) {
    return Content.builder().role("model").parts(Part.fromText(text)).build();
  }

  static String texts(LlmRequest request) {
    StringBuilder sb = new StringBuilder();
    for (Content c : request.contents()) {
      sb.append(Contents.text(c)).append('|');
    }
    return sb.toString();
  }

  @Test
  void everyIntervalInvocations_aSummaryReplacesTheHistoryInRequests_andNothingStoredIsLost() {
    List<List<Event>> inputs = new CopyOnWriteArrayList<>();
    AtomicInteger made = new AtomicInteger();
    EventSummarizer summarizer =
        (previous, events) -> {
          inputs.add(events);
          long start = previous != null ? previous.startTimestamp() : events.get(0).timestamp();
          return Maybe.just(
              new EventCompaction(
                  start,
                  events.get(events.size() - 1).timestamp(),
                  summaryContent("SUMMARY-" + made.incrementAndGet())));
        };
    Runner runner =
        new Runner(
            agent(),
            APP,
            null,
            sessions,
            EventsCompactionConfig.of(2, 0).withSummarizer(summarizer));
    sessions.createSession(APP, USER, null, "s").blockingGet();

    for (int i = 1; i <= 7; i++) {
      turn(runner, "t" + i);
    }

    // Compactions after turns 2, 4 and 6; each summarized the events since the previous one.
    assertThat(stored().stream().filter(e -> e.actions().compaction().isPresent()).count())
        .isEqualTo(3);
    assertThat(inputs).hasSize(3);
    assertThat(inputs.get(1))
        .extracting(Event::stringifyContent)
        .containsExactly("t3", "echo t3", "t4", "echo t4");
    // The full history stays stored: 7 turns of 2 events plus 3 compaction events.
    assertThat(stored()).hasSize(17);
    // Turn 7's request: the latest summary, then only what came after it.
    LlmRequest last = echo.lastRequest();
    assertThat(last.contents()).hasSize(2);
    assertThat(texts(last)).contains("SUMMARY-3").doesNotContain("SUMMARY-2").doesNotContain("t5");
    assertThat(Contents.lastUserText(last)).isEqualTo("t7");
    // Requests stay bounded: never more than the summary plus two invocations' events.
    assertThat(echo.requests().stream().mapToInt(r -> r.contents().size()).max().orElseThrow())
        .isLessThanOrEqualTo(1 + 2 * 2);
  }

  @Test
  void overlap_givesTheSummarizerTheLastSummarizedInvocationsAgain() {
    List<List<Event>> inputs = new CopyOnWriteArrayList<>();
    EventSummarizer summarizer =
        (previous, events) -> {
          inputs.add(events);
          return Maybe.just(
              new EventCompaction(
                  events.get(0).timestamp(),
                  events.get(events.size() - 1).timestamp(),
                  summaryContent("S")));
        };
    Runner runner =
        new Runner(
            agent(),
            APP,
            null,
            sessions,
            EventsCompactionConfig.of(2, 1).withSummarizer(summarizer));
    sessions.createSession(APP, USER, null, "s").blockingGet();
    for (int i = 1; i <= 4; i++) {
      turn(runner, "t" + i);
    }
    assertThat(inputs).hasSize(2);
    assertThat(inputs.get(1))
        .extracting(Event::stringifyContent)
        .containsExactly("t2", "echo t2", "t3", "echo t3", "t4", "echo t4");
  }

  @Test
  void defaultSummarizer_asksTheAgentsModel_andAFailedSummaryIsRetriedNextTurn() {
    AtomicInteger summaryCalls = new AtomicInteger();
    ScriptedLlm model =
        ScriptedLlm.builder()
            .otherwise(
                req -> {
                  if (req.systemInstruction()
                      .orElse("")
                      .contains("memory of a long conversation")) {
                    if (summaryCalls.incrementAndGet() == 1) {
                      throw new IllegalStateException("summarizer down");
                    }
                    return ScriptedLlm.textResponse(
                        "They talked about " + Contents.lastUserText(req).length() + " chars");
                  }
                  return ScriptedLlm.textResponse("ok");
                })
            .build();
    Runner runner =
        new Runner(
            LlmAgent.builder().name("A").model(model).build(),
            APP,
            null,
            sessions,
            EventsCompactionConfig.of(1, 0));
    sessions.createSession(APP, USER, null, "s").blockingGet();

    turn(runner, "first"); // summarizing fails: the turn still succeeds, nothing compacted
    assertThat(stored()).hasSize(2);
    turn(runner, "second"); // due again: now it works
    List<Event> events = stored();
    Event compaction = events.get(events.size() - 1);
    assertThat(compaction.actions().compaction()).isPresent();
    assertThat(Contents.text(compaction.actions().compaction().get().compactedContent()))
        .startsWith("They talked about");
    assertThat(compaction.actions().compaction().get().startTimestamp())
        .isEqualTo(events.get(0).timestamp());
    assertThat(summaryCalls.get()).isEqualTo(2);
  }
}
