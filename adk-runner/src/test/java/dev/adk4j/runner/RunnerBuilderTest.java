package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.artifacts.InMemoryArtifactService;
import dev.adk4j.events.Event;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import io.reactivex.rxjava3.core.Flowable;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Runner#builder()}, ADK for Java's other way to make a runner. */
class RunnerBuilderTest {

  /** Answers every message with one text event. */
  private static BaseAgent replying(String text) {
    return new BaseAgent("replier", "", List.of(), List.of(), List.of()) {
      @Override
      protected Flowable<Event> runAsyncImpl(InvocationContext context) {
        return Flowable.just(
            newEvent(context)
                .content(
                    Content.builder().role("model").parts(List.of(Part.fromText(text))).build())
                .build());
      }
    };
  }

  @Test
  void builder_usesTheGivenServices() {
    InMemorySessionService sessions = new InMemorySessionService();
    InMemoryArtifactService artifacts = new InMemoryArtifactService();
    BaseAgent agent = replying("hi");
    EventsCompactionConfig compaction = EventsCompactionConfig.of(3, 1);
    Runner runner =
        Runner.builder()
            .agent(agent)
            .appName("app")
            .sessionService(sessions)
            .artifactService(artifacts)
            .eventsCompactionConfig(compaction)
            .build();
    Session session = sessions.createSession("app", "u", null, "s").blockingGet();

    List<Event> events =
        runner
            .runAsync("u", session.id(), Content.fromParts(Part.fromText("hello")))
            .toList()
            .blockingGet();

    assertThat(runner.agent()).isSameAs(agent);
    assertThat(runner.appName()).isEqualTo("app");
    assertThat(runner.sessionService()).isSameAs(sessions);
    assertThat(runner.artifactService()).isSameAs(artifacts);
    assertThat(runner.eventsCompactionConfig()).containsSame(compaction);
    assertThat(events).extracting(Event::stringifyContent).containsExactly("hi");
    assertThat(sessions.getSession("app", "u", "s").blockingGet().events()).hasSize(2);
  }

  @Test
  void builder_defaultsToFreshInMemoryServices_andNoCompaction() {
    Runner runner = Runner.builder().agent(replying("hi")).appName("app").build();
    Runner other = Runner.builder().agent(replying("hi")).appName("app").build();

    assertThat(runner.sessionService()).isInstanceOf(InMemorySessionService.class);
    assertThat(runner.artifactService()).isInstanceOf(InMemoryArtifactService.class);
    assertThat(runner.sessionService()).isNotSameAs(other.sessionService());
    assertThat(runner.eventsCompactionConfig()).isEmpty();
    assertThat(Runner.builder().agent(replying("hi")).appName("app").artifactService(null).build())
        .extracting(Runner::artifactService)
        .isNull();
  }

  @Test
  void builder_withoutAgentOrAppName_orWithABlankAppName_fails_namingWhatIsMissing() {
    assertThatThrownBy(() -> Runner.builder().appName("app").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("agent");
    assertThatThrownBy(() -> Runner.builder().agent(replying("hi")).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("appName");
    assertThatThrownBy(() -> Runner.builder().agent(replying("hi")).appName(" ").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("appName");
    assertThatThrownBy(() -> Runner.builder().sessionService(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("sessionService");
  }
}
