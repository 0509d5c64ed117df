package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.sessions.InMemorySessionService;
import io.reactivex.rxjava3.core.Flowable;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The turn mechanism (architecture.md): a turn works on its subscriber's thread; a model that never
 * blocks its subscriber is called there too; a model that may block, and a streamed run, get
 * threads of their own.
 */
class TurnThreadsTest {

  /** Answers at once, recording the thread it was subscribed on. */
  static final class ThreadRecordingModel extends BaseLlm {
    final boolean blocks;
    final List<Thread> calledOn = new CopyOnWriteArrayList<>();

    ThreadRecordingModel(boolean blocks) {
      super("thread-recording");
      this.blocks = blocks;
    }

    @Override
    public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
      return Flowable.fromCallable(
          () -> {
            calledOn.add(Thread.currentThread());
            return LlmResponse.builder()
                .content(Content.builder().role("model").parts(Part.fromText("ok")).build())
                .build();
          });
    }

    @Override
    public boolean blocksSubscriber() {
      return blocks;
    }
  }

  private static final Content HI = Content.fromParts(Part.fromText("hi"));

  private static Runner runner(BaseLlm model) {
    InMemorySessionService sessions = new InMemorySessionService();
    sessions.createSession("app", "u", null, "s").blockingGet();
    return Runner.builder()
        .agent(LlmAgent.builder().name("bot").model(model).build())
        .appName("app")
        .sessionService(sessions)
        .build();
  }

  @Test
  void aTurn_andAModelThatNeverBlocks_workOnTheSubscribersThread() {
    ThreadRecordingModel model = new ThreadRecordingModel(false);
    List<Thread> emittedOn = new CopyOnWriteArrayList<>();

    runner(model).runAsync("u", "s", HI).subscribe(e -> emittedOn.add(Thread.currentThread()));

    // subscribe returned after the whole turn: it ran right here
    assertThat(emittedOn).isNotEmpty().containsOnly(Thread.currentThread());
    assertThat(model.calledOn).containsExactly(Thread.currentThread());
  }

  @Test
  void aModelThatMayBlock_isCalledOnAThreadOfItsOwn_theTurnStaysOnTheSubscribers() {
    ThreadRecordingModel model = new ThreadRecordingModel(true);
    List<Thread> emittedOn = new CopyOnWriteArrayList<>();

    runner(model).runAsync("u", "s", HI).subscribe(e -> emittedOn.add(Thread.currentThread()));

    assertThat(emittedOn).isNotEmpty().containsOnly(Thread.currentThread());
    assertThat(model.calledOn).hasSize(1);
    assertThat(model.calledOn.get(0)).isNotSameAs(Thread.currentThread());
    assertThat(model.calledOn.get(0).getName()).startsWith("adk4j-model-call-");
  }

  @Test
  void aStreamedRun_worksOnAThreadOfItsOwn() {
    ThreadRecordingModel model = new ThreadRecordingModel(false);
    List<Thread> emittedOn = new CopyOnWriteArrayList<>();
    RunConfig sse = RunConfig.builder().streamingMode(RunConfig.StreamingMode.SSE).build();

    List<Event> events =
        runner(model)
            .runAsync("u", "s", HI, sse)
            .doOnNext(e -> emittedOn.add(Thread.currentThread()))
            .toList()
            .blockingGet();

    assertThat(events).isNotEmpty();
    assertThat(emittedOn).doesNotContain(Thread.currentThread());
    assertThat(model.calledOn).hasSize(1).doesNotContain(Thread.currentThread());
  }
}
