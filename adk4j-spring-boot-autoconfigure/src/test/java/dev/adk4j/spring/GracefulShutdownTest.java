package dev.adk4j.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.runner.InvocationFailedException;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.testing.ScriptedLlm;
import io.reactivex.rxjava3.core.Flowable;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Closing the application while a turn runs: the close waits for the turn, which finishes and is
 * stored; a turn started once the stop began is refused with an error naming its session.
 */
class GracefulShutdownTest {

  @Test
  void aTurnInFlight_finishesBeforeTheServicesClose_andNewTurnsAreRefused() throws Exception {
    CountDownLatch modelCalled = new CountDownLatch(1);
    ScriptedLlm slow =
        ScriptedLlm.builder()
            .thenFlowable(
                req ->
                    Flowable.timer(1500, TimeUnit.MILLISECONDS)
                        .map(x -> ScriptedLlm.textResponse("done"))
                        .doOnSubscribe(s -> modelCalled.countDown()))
            .build();
    InMemorySessionService sessions = new InMemorySessionService();
    sessions.createSession("slow", "u", null, "s").blockingGet();
    sessions.createSession("slow", "u", null, "late").blockingGet();
    CompletableFuture<List<Event>> turn = new CompletableFuture<>();
    Runner[] runner = new Runner[1];
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(Adk4jAutoConfiguration.class))
        .withBean(BaseSessionService.class, () -> sessions)
        .withBean(
            LlmAgent.class,
            () -> LlmAgent.builder().name("slow").model(slow).instruction("Answer.").build())
        .run(
            ctx -> {
              runner[0] = ctx.getBean(AdkRunners.class).single();
              runner[0]
                  .runAsync("u", "s", Content.fromParts(Part.fromText("hi")))
                  .toList()
                  .subscribeOn(io.reactivex.rxjava3.schedulers.Schedulers.io()) // in flight
                  .subscribe(turn::complete, turn::completeExceptionally);
              assertThat(modelCalled.await(10, TimeUnit.SECONDS)).isTrue();
            }); // the context closes here, with the turn in flight
    // the close returned only once the turn had stored its answer (the model answers 1.5 s late)
    assertThat(
            sessions
                .getSession("slow", "u", "s", java.util.Optional.empty())
                .blockingGet()
                .events())
        .hasSize(2);
    List<Event> events = turn.get(10, TimeUnit.SECONDS);
    assertThat(TestAgents.lastText(events)).isEqualTo("done");
    try (CapturedLogs logs = new CapturedLogs("dev.adk4j.runner")) {
      assertThatThrownBy(
              () ->
                  InvocationFailedException.throwIfFailed(
                      runner[0]
                          .runAsync("u", "late", Content.fromParts(Part.fromText("hi")))
                          .toList()
                          .blockingGet()))
          .hasMessageContaining("shutting down")
          .hasMessageContaining("session 'late'");
      assertThat(logs.messages()).anyMatch(m -> m.startsWith("WARN") && m.contains("'late'"));
    }
  }
}
