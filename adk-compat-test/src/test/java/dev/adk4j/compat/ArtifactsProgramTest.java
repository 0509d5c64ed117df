package dev.adk4j.compat;

// ADK for Java: com.google.adk.agents.*, com.google.adk.artifacts.*, com.google.adk.runner.*
// (prefix swap only).
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.artifacts.BaseArtifactService;
import dev.adk4j.artifacts.InMemoryArtifactService;
import dev.adk4j.artifacts.ListArtifactsResponse;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionKey;
import io.reactivex.rxjava3.core.Maybe;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Artifacts through the service and through a callback's context, as ADK's documentation shows. */
class ArtifactsProgramTest {

  @Test
  void service_savesVersions_loadsByIntVersionOrLatest_andListsKeys() {
    InMemoryArtifactService artifacts = new InMemoryArtifactService();
    artifacts.saveArtifact("app", "u", "s", "report.txt", Part.fromText("v0")).blockingGet();
    int second =
        artifacts.saveArtifact("app", "u", "s", "report.txt", Part.fromText("v1")).blockingGet();

    assertThat(second).isEqualTo(1);
    assertThat(artifacts.loadArtifact("app", "u", "s", "report.txt", 0).blockingGet().text())
        .contains("v0");
    assertThat(
            artifacts
                .loadArtifact("app", "u", "s", "report.txt", (Integer) null)
                .blockingGet()
                .text())
        .contains("v1");
    assertThat(artifacts.listArtifactKeys("app", "u", "s").blockingGet())
        .isEqualTo(ListArtifactsResponse.builder().filenames(List.of("report.txt")).build());
  }

  @Test
  void callback_savesAnArtifact_andTheInvocationContextHasTheService() {
    AtomicReference<BaseArtifactService> seen = new AtomicReference<>();
    LlmAgent agent =
        LlmAgent.builder()
            .name("reporter")
            .model(new QueueModel(QueueModel.text("saved")))
            .afterAgentCallback(
                callbackContext -> {
                  seen.set(callbackContext.invocationContext().artifactService());
                  return callbackContext
                      .saveArtifact("summary.txt", Part.fromText("all good"))
                      .flatMapMaybe(version -> Maybe.<Content>empty());
                })
            .build();
    InMemoryRunner runner = new InMemoryRunner(agent);
    Session session = runner.sessionService().createSession(runner.appName(), "u").blockingGet();

    runner
        .runAsync("u", session.id(), Content.fromParts(Part.fromText("report")))
        .blockingSubscribe();

    assertThat(seen.get()).isSameAs(runner.artifactService());
    assertThat(
            runner
                .artifactService()
                .loadArtifact(runner.appName(), "u", session.id(), "summary.txt")
                .blockingGet()
                .text())
        .contains("all good");
  }

  @Test
  void service_takesASessionKey_whereItTakesTheThreeIds() {
    BaseArtifactService artifacts = new InMemoryArtifactService();
    SessionKey key = new SessionKey("app", "u", "s");

    int first = artifacts.saveArtifact(key, "notes.md", Part.fromText("v0")).blockingGet();
    Part reloaded =
        artifacts.saveAndReloadArtifact(key, "notes.md", Part.fromText("v1")).blockingGet();
    artifacts.saveArtifact(key, "draft.md", Part.fromText("d0")).blockingGet();

    assertThat(first).isEqualTo(0);
    assertThat(reloaded.text()).contains("v1");
    assertThat(artifacts.loadArtifact(key, "notes.md").blockingGet().text()).contains("v1");
    assertThat(artifacts.loadArtifact(key, "notes.md", 0).blockingGet().text()).contains("v0");
    assertThat(artifacts.listVersions(key, "notes.md").blockingGet()).containsExactly(0, 1);
    assertThat(artifacts.listArtifactKeys(key).blockingGet().filenames())
        .containsExactly("draft.md", "notes.md");
    // The key's forms reach the same artifacts as the three ids.
    assertThat(artifacts.loadArtifact("app", "u", "s", "draft.md").blockingGet().text())
        .contains("d0");

    artifacts.deleteArtifact(key, "draft.md").blockingAwait();

    assertThat(artifacts.listArtifactKeys("app", "u", "s").blockingGet().filenames())
        .containsExactly("notes.md");
    assertThat(artifacts.loadArtifact(key, "draft.md").blockingGet()).isNull();
    // Another session of the same user has none of them.
    assertThat(
            artifacts
                .listArtifactKeys(new SessionKey("app", "u", "other"))
                .blockingGet()
                .filenames())
        .isEmpty();
  }

  @Test
  void aSessionKeyWithoutAnId_isRefused_namingItsAppAndUser() {
    BaseArtifactService artifacts = new InMemoryArtifactService();
    SessionKey noId = new SessionKey("shop", "ann", null);

    assertThatThrownBy(() -> artifacts.saveArtifact(noId, "a.txt", Part.fromText("x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'shop'")
        .hasMessageContaining("'ann'");
    assertThatThrownBy(() -> artifacts.listArtifactKeys(noId))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
