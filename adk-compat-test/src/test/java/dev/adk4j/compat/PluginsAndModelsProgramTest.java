package dev.adk4j.compat;

// ADK for Java: com.google.adk.agents.*, com.google.adk.models.*, com.google.adk.plugins.*,
// com.google.adk.runner.* (prefix swap only).
import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.CallbackContext;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRegistry;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.plugins.BasePlugin;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.sessions.Session;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A custom model whose HTTP call fails with an {@code IOException}, rescued by a plugin's {@code
 * onModelErrorCallback}, as ADK's plugin documentation describes the hook.
 */
class PluginsAndModelsProgramTest {

  static final class OfflineModel extends BaseLlm {
    OfflineModel() {
      super("offline-model");
    }

    @Override
    public Flowable<LlmResponse> generateContent(LlmRequest llmRequest, boolean stream) {
      return Flowable.error(new IOException("network is unreachable"));
    }
  }

  static final class FallbackPlugin extends BasePlugin {
    final List<Throwable> errors = new CopyOnWriteArrayList<>();

    FallbackPlugin() {
      super("fallback");
    }

    @Override
    public Maybe<LlmResponse> onModelErrorCallback(
        CallbackContext callbackContext, LlmRequest.Builder llmRequest, Throwable error) {
      errors.add(error);
      return Maybe.just(QueueModel.text("Sorry, I am offline."));
    }
  }

  @Test
  void modelIOException_reachesThePlugin_whoseAnswerEndsTheTurn() {
    FallbackPlugin plugin = new FallbackPlugin();
    LlmAgent agent = LlmAgent.builder().name("assistant").model(new OfflineModel()).build();
    InMemoryRunner runner = new InMemoryRunner(agent, "assistant app", List.of(plugin));
    Session session = runner.sessionService().createSession("assistant app", "u").blockingGet();

    List<Event> events =
        runner
            .runAsync("u", session.id(), Content.fromParts(Part.fromText("hi")))
            .toList()
            .blockingGet();

    assertThat(plugin.getName()).isEqualTo("fallback");
    assertThat(plugin.errors).singleElement().isInstanceOf(IOException.class);
    assertThat(events.get(events.size() - 1).stringifyContent()).isEqualTo("Sorry, I am offline.");
  }

  @Test
  void registerLlm_makesAModelNameResolvable_forAgentsAndGetLlm() {
    LlmRegistry.registerLlm(
        "compat-queue-.*", modelName -> new QueueModel(QueueModel.text("hello from " + modelName)));
    LlmAgent agent = LlmAgent.builder().name("assistant").model("compat-queue-1").build();
    InMemoryRunner runner = new InMemoryRunner(agent);
    Session session = runner.sessionService().createSession(runner.appName(), "u").blockingGet();

    List<Event> events =
        runner
            .runAsync("u", session.id(), Content.fromParts(Part.fromText("hi")))
            .toList()
            .blockingGet();

    assertThat(events.get(events.size() - 1).stringifyContent())
        .isEqualTo("hello from compat-queue-1");
    assertThat(LlmRegistry.getLlm("compat-queue-2")).isInstanceOf(QueueModel.class);
  }
}
