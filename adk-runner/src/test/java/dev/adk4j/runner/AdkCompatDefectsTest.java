package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.agents.CallbackContext;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmException;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.plugins.BasePlugin;
import dev.adk4j.sessions.Session;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Defects of issue 34 where adk4j differed from ADK for Java 1.8.0 without saying so: the in-memory
 * runner's app name, and a model failing with a checked exception.
 */
class AdkCompatDefectsTest {

  /** A model whose Flowable fails with an {@link IOException}, as an HTTP client's would. */
  static final class BrokenPipeModel extends BaseLlm {
    BrokenPipeModel() {
      super("pipe-model");
    }

    @Override
    public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
      return Flowable.error(new IOException("connection reset"));
    }
  }

  @Test
  void inMemoryRunner_appName_isTheAgentsName_asInAdk() {
    LlmAgent agent =
        LlmAgent.builder().name("weather_agent").model(ScriptedLlm.answering(r -> null)).build();
    InMemoryRunner runner = new InMemoryRunner(agent);

    assertThat(runner.appName()).isEqualTo("weather_agent");
    // A session an ADK program creates under the agent's name is the runner's.
    Session s =
        runner.sessionService().createSession("weather_agent", "u", null, "s1").blockingGet();
    assertThat(s.appName()).isEqualTo(runner.appName());
  }

  @Test
  void modelFailingWithACheckedException_reachesOnModelErrorCallback_whichMayAnswer() {
    List<Throwable> seen = new CopyOnWriteArrayList<>();
    BasePlugin rescue =
        new BasePlugin("rescue") {
          @Override
          public Maybe<LlmResponse> onModelErrorCallback(
              CallbackContext ctx, LlmRequest.Builder request, Throwable error) {
            seen.add(error);
            return Maybe.just(ScriptedLlm.textResponse("offline answer"));
          }
        };
    LlmAgent agent = LlmAgent.builder().name("agent").model(new BrokenPipeModel()).build();
    InMemoryRunner runner = new InMemoryRunner(agent, "app", List.of(rescue));
    runner.sessionService().createSession("app", "u", null, "s").blockingGet();

    List<Event> events = runner.runAsync("u", "s", Contents.user("hi")).toList().blockingGet();

    assertThat(seen).singleElement().isInstanceOf(IOException.class);
    assertThat(events)
        .last()
        .satisfies(e -> assertThat(e.stringifyContent()).isEqualTo("offline answer"));
  }

  @Test
  void modelFailingWithACheckedException_withoutRescue_isAModelError() {
    LlmAgent agent = LlmAgent.builder().name("agent").model(new BrokenPipeModel()).build();
    InMemoryRunner runner = new InMemoryRunner(agent, "app");
    runner.sessionService().createSession("app", "u", null, "s").blockingGet();
    List<Event> events = new CopyOnWriteArrayList<>();
    Throwable[] error = new Throwable[1];

    runner
        .runAsync("u", "s", Contents.user("hi"))
        .blockingSubscribe(events::add, e -> error[0] = e);

    assertThat(error[0]).isNull(); // the failure is the last event
    assertThat(InvocationFailedException.of(events).orElseThrow().getCause())
        .isInstanceOf(LlmException.class)
        .hasMessageContaining("pipe-model")
        .hasMessageContaining("IOException: connection reset")
        .hasCauseInstanceOf(IOException.class);
    assertThat(events).last().satisfies(e -> assertThat(e.errorCode()).contains("MODEL_ERROR"));
  }
}
