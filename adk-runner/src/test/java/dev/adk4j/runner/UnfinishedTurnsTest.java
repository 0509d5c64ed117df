package dev.adk4j.runner;

import static dev.adk4j.runner.InvocationFailedException.throwIfFailed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionException;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import io.reactivex.rxjava3.core.Single;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Turns the store failed under, as the history checker found them (issue 33): each leaves a history
 * of whole turns. A turn that stopped after its tool responses is closed by the next one; a turn
 * whose user message was not stored stores nothing at all.
 */
class UnfinishedTurnsTest {

  private static final String APP = "unfinished";

  private static LlmAgent agent(ScriptedLlm model) {
    return LlmAgent.builder().name("clerk").model(model).instruction("Help.").build();
  }

  private static Event event(String invocation, String author, Part part) {
    return Event.builder()
        .invocationId(invocation)
        .author(author)
        .content(
            Content.builder().role("user".equals(author) ? "user" : "model").parts(part).build())
        .build();
  }

  /** {@code real}, except that appending an event {@code fails} accepts fails as a full disk. */
  private static BaseSessionService failingAppends(
      BaseSessionService real, java.util.function.Predicate<Event> fails) {
    return (BaseSessionService)
        Proxy.newProxyInstance(
            UnfinishedTurnsTest.class.getClassLoader(),
            new Class<?>[] {BaseSessionService.class},
            (proxy, method, args) -> {
              if (method.getName().equals("appendEvent") && fails.test((Event) args[1])) {
                return Single.error(new SessionException("injected: the disk is full"));
              }
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @Test
  void aTurnThatStoppedAfterItsToolResponses_isClosedByTheNextTurn() {
    InMemorySessionService sessions = new InMemorySessionService();
    Session s = sessions.createSession(APP, "u", null, "s").blockingGet();
    // What a turn leaves when the store fails after its tool's response: no model answer after
    // it, and no closing event.
    sessions.appendEvent(s, event("crashed", "user", Part.fromText("do it"))).blockingGet();
    sessions
        .appendEvent(
            s,
            event(
                "crashed",
                "clerk",
                Part.builder()
                    .functionCall(FunctionCall.builder().id("c1").name("apply").build())
                    .build()))
        .blockingGet();
    sessions
        .appendEvent(
            s,
            event(
                "crashed",
                "clerk",
                Part.builder()
                    .functionResponse(
                        FunctionResponse.builder()
                            .id("c1")
                            .name("apply")
                            .response(Map.of("ok", true))
                            .build())
                    .build()))
        .blockingGet();
    Runner runner =
        new Runner(
            agent(ScriptedLlm.builder().thenText("done").thenText("done again").build()),
            APP,
            null,
            sessions);

    runner.runAsync("u", "s", Contents.user("next")).blockingSubscribe();

    List<Event> events = sessions.getSession(APP, "u", "s").blockingGet().events();
    assertThat(events).hasSize(6);
    Event closing = events.get(3);
    assertThat(closing.invocationId()).isEqualTo("crashed");
    assertThat(closing.errorCode()).contains("INTERRUPTED");
    assertThat(events.get(4).author()).isEqualTo("user");
    assertThat(events.get(5).stringifyContent()).isEqualTo("done");
    // A whole turn is not closed again by the turn after it.
    runner.runAsync("u", "s", Contents.user("again")).blockingSubscribe();
    assertThat(sessions.getSession(APP, "u", "s").blockingGet().events())
        .filteredOn(e -> e.errorCode().isPresent())
        .hasSize(1);
  }

  @Test
  void aTurnWhoseUserMessageWasNotStored_storesNoClosingEvent() throws Exception {
    InMemorySessionService real = new InMemorySessionService();
    real.createSession(APP, "u", null, "s").blockingGet();
    AtomicBoolean failed = new AtomicBoolean();
    BaseSessionService failingOnce =
        failingAppends(real, e -> "user".equals(e.author()) && failed.compareAndSet(false, true));
    Runner runner =
        new Runner(
            agent(ScriptedLlm.builder().thenText("first").thenText("second").build()),
            APP,
            null,
            failingOnce);

    Throwable thrown =
        catchThrowable(() -> runner.runAsync("u", "s", Contents.user("lost")).blockingSubscribe());

    assertThat(thrown).hasMessageContaining("injected");
    assertThat(real.getSession(APP, "u", "s").blockingGet().events()).isEmpty();
    runner.runAsync("u", "s", Contents.user("kept")).blockingSubscribe();
    assertThat(real.getSession(APP, "u", "s").blockingGet().events())
        .extracting(Event::stringifyContent)
        .containsExactly("kept", "first");
  }

  @Test
  void aTurnWhoseClosingEventsCouldNotBeStored_isClosedByTheNextTurn() {
    InMemorySessionService real = new InMemorySessionService();
    real.createSession(APP, "u", null, "s").blockingGet();
    AtomicBoolean storeFails = new AtomicBoolean(true);
    // The store takes the user's message, then fails under every other append of the turn: its
    // answer, and the error event that would close it.
    BaseSessionService failing =
        failingAppends(real, e -> !"user".equals(e.author()) && storeFails.get());
    Runner runner =
        new Runner(
            agent(ScriptedLlm.builder().thenText("lost").thenText("second").build()),
            APP,
            null,
            failing);

    Throwable thrown =
        catchThrowable(
            () ->
                throwIfFailed(
                    runner.runAsync("u", "s", Contents.user("first")).toList().blockingGet()));
    assertThat(thrown).hasMessageContaining("injected");
    assertThat(real.getSession(APP, "u", "s").blockingGet().events())
        .extracting(Event::stringifyContent)
        .containsExactly("first");

    storeFails.set(false);
    runner.runAsync("u", "s", Contents.user("again")).blockingSubscribe();
    List<Event> events = real.getSession(APP, "u", "s").blockingGet().events();
    assertThat(events).hasSize(4);
    assertThat(events.get(1).invocationId()).isEqualTo(events.get(0).invocationId());
    assertThat(events.get(1).errorCode()).contains("INTERRUPTED");
    assertThat(events.subList(2, 4))
        .extracting(Event::stringifyContent)
        .containsExactly("again", "second");
  }
}
