package dev.adk4j.compat;

// ADK for Java: com.google.adk.agents.*, com.google.adk.events.Event, com.google.adk.models.*,
// com.google.adk.runner.InMemoryRunner, com.google.adk.sessions.Session (prefix swap only).
import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Blob;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.LiveRequestQueue;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.BaseLlmConnection;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.sessions.Session;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.processors.ReplayProcessor;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A live (bidirectional) run, as ADK's {@code runLive} with a {@code LiveRequestQueue}: the agent's
 * before- and after-agent callbacks run around the live connection as around a turn, and their
 * state writes are stored. The model is an in-process live model (ADK's {@code BaseLlm.connect}).
 */
class LiveCallbacksProgramTest {

  /** Answers each user content with one turn, "echo: " and its text. */
  static final class EchoLiveModel extends BaseLlm {
    EchoLiveModel() {
      super("echo-live");
    }

    @Override
    public Flowable<LlmResponse> generateContent(LlmRequest llmRequest, boolean stream) {
      return Flowable.error(new UnsupportedOperationException("live only"));
    }

    @Override
    public BaseLlmConnection connect(LlmRequest llmRequest) {
      ReplayProcessor<LlmResponse> responses = ReplayProcessor.create();
      return new BaseLlmConnection() {
        @Override
        public Completable sendHistory(List<Content> history) {
          return Completable.complete();
        }

        @Override
        public Completable sendContent(Content content) {
          // A live model streams its turn in partial pieces, then says the turn is complete.
          return Completable.fromRunnable(
              () -> {
                String text = content.parts().orElseThrow().get(0).text().orElse("");
                responses.onNext(
                    LlmResponse.builder()
                        .content(
                            Content.builder()
                                .role("model")
                                .parts(List.of(Part.fromText("echo: " + text)))
                                .build())
                        .partial(true)
                        .build());
                responses.onNext(LlmResponse.builder().turnComplete(true).build());
              });
        }

        @Override
        public Completable sendRealtime(Blob blob) {
          return Completable.complete();
        }

        @Override
        public Flowable<LlmResponse> receive() {
          return responses;
        }

        @Override
        public void close() {
          responses.onComplete();
        }

        @Override
        public void close(Throwable cause) {
          responses.onError(cause);
        }
      };
    }
  }

  @Test
  void liveRun_runsTheAgentCallbacksAroundTheConnection_andStoresTheirWrites() {
    List<String> calls = new CopyOnWriteArrayList<>();
    LlmAgent agent =
        LlmAgent.builder()
            .name("voice")
            .model(new EchoLiveModel())
            .beforeAgentCallback(
                callbackContext -> {
                  calls.add("before");
                  callbackContext.state().put("greeted", true);
                  return Maybe.empty();
                })
            .afterAgentCallback(
                callbackContext -> {
                  calls.add("after");
                  return Maybe.empty();
                })
            .build();
    InMemoryRunner runner = new InMemoryRunner(agent);
    Session session = runner.sessionService().createSession(runner.appName(), "user").blockingGet();
    LiveRequestQueue queue = new LiveRequestQueue();
    queue.content(Content.fromParts(Part.fromText("hello")));

    List<Event> events =
        runner
            .runLive("user", session.id(), queue, RunConfig.builder().build())
            .doOnNext(
                e -> {
                  if (e.turnComplete().orElse(false)) {
                    queue.close();
                  }
                })
            .toList()
            .timeout(30, TimeUnit.SECONDS)
            .blockingGet();

    assertThat(calls).containsExactly("before", "after");
    assertThat(events)
        .filteredOn(e -> e.turnComplete().orElse(false))
        .singleElement()
        .satisfies(e -> assertThat(e.stringifyContent()).isEqualTo("echo: hello"));
    Session stored =
        runner.sessionService().getSession(runner.appName(), "user", session.id()).blockingGet();
    assertThat(stored.state()).containsEntry("greeted", true);
  }
}
