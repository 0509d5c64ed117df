package dev.adk4j.compat;

// ADK for Java: com.google.adk.agents.*, com.google.adk.events.Event, com.google.adk.models.*,
// com.google.adk.runner.InMemoryRunner, com.google.adk.sessions.Session (prefix swap only).
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.AudioTranscriptionConfig;
import com.google.genai.types.AvatarConfig;
import com.google.genai.types.Blob;
import com.google.genai.types.Content;
import com.google.genai.types.LiveConnectConfig;
import com.google.genai.types.Modality;
import com.google.genai.types.Part;
import com.google.genai.types.Transcription;
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
import io.reactivex.rxjava3.processors.ReplayProcessor;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * ADK's {@code RunConfig} options for audio, artifacts and metadata: {@code
 * saveInputBlobsAsArtifacts}, {@code inputAudioTranscription}, {@code outputAudioTranscription},
 * {@code avatarConfig}, {@code customMetadata}, {@code groupFunctionResponsesInHistory}, with their
 * {@code set...} forms, and what they do in a run.
 */
@SuppressWarnings("deprecation") // ADK's groupFunctionResponsesInHistory is deprecated there too
class RunConfigOptionsProgramTest {

  @Test
  void builder_takesAdksOptions_inBothSpellings_andCopiesThem() {
    AudioTranscriptionConfig transcription = AudioTranscriptionConfig.builder().build();
    AvatarConfig avatar = AvatarConfig.builder().avatarName("guide").build();

    RunConfig config =
        RunConfig.builder()
            .setSaveInputBlobsAsArtifacts(true)
            .setInputAudioTranscription(transcription)
            .setOutputAudioTranscription(transcription)
            .setResponseModalities(List.of(new Modality(Modality.Known.AUDIO)))
            .avatarConfig(avatar)
            .setCustomMetadata(Map.of("tier", "gold"))
            .groupFunctionResponsesInHistory(true)
            .build();
    RunConfig copy = RunConfig.builder(config).build();

    assertThat(copy.saveInputBlobsAsArtifacts()).isTrue();
    assertThat(copy.inputAudioTranscription()).isEqualTo(transcription);
    assertThat(copy.outputAudioTranscription()).isEqualTo(transcription);
    assertThat(copy.avatarConfig()).isEqualTo(avatar);
    assertThat(copy.customMetadata()).isEqualTo(Map.of("tier", "gold"));
    assertThat(copy.groupFunctionResponsesInHistory()).isTrue();
    assertThat(copy.groupFunctionResponsesInHistoryOverride()).contains(true);

    RunConfig defaults = RunConfig.builder().build();
    assertThat(defaults.saveInputBlobsAsArtifacts()).isFalse();
    assertThat(defaults.inputAudioTranscription()).isNull();
    assertThat(defaults.outputAudioTranscription()).isNull();
    assertThat(defaults.avatarConfig()).isNull();
    assertThat(defaults.customMetadata()).isEmpty();
    assertThat(defaults.groupFunctionResponsesInHistory()).isFalse();
    assertThat(defaults.groupFunctionResponsesInHistoryOverride()).isEmpty();
    assertThat(defaults.speechConfig()).isNull();
    // As in ADK, Integer.MAX_VALUE is refused: 0 or less says "no limit".
    assertThatThrownBy(() -> RunConfig.builder().setMaxLlmCalls(Integer.MAX_VALUE).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxLlmCalls");
    assertThat(
            RunConfig.builder(config)
                .groupFunctionResponsesInHistoryOverride(Optional.empty())
                .build()
                .groupFunctionResponsesInHistoryOverride())
        .isEmpty();
  }

  @Test
  void saveInputBlobsAsArtifacts_savesTheMessagesBlobs_andTheModelSeesTheirNames() {
    QueueModel model = new QueueModel(QueueModel.text("Got your file."));
    InMemoryRunner runner =
        new InMemoryRunner(LlmAgent.builder().name("clerk").model(model).build());
    Session session = runner.sessionService().createSession(runner.appName(), "u").blockingGet();
    byte[] pdf = "%PDF-1.7 tiny".getBytes(StandardCharsets.US_ASCII);
    Content message =
        Content.builder()
            .role("user")
            .parts(
                List.of(
                    Part.fromText("Please file this."),
                    Part.builder()
                        .inlineData(Blob.builder().mimeType("application/pdf").data(pdf).build())
                        .build()))
            .build();

    runner
        .runAsync(
            "u",
            session.id(),
            message,
            RunConfig.builder().setSaveInputBlobsAsArtifacts(true).build())
        .blockingSubscribe();

    Event stored =
        runner
            .sessionService()
            .getSession(runner.appName(), "u", session.id())
            .blockingGet()
            .events()
            .get(0);
    String name = "artifact_" + stored.invocationId() + "_1";
    assertThat(stored.actions().artifactDelta()).containsEntry(name, 0);
    assertThat(stored.content().orElseThrow().parts().orElseThrow())
        .extracting(p -> p.text().orElse(""))
        .containsExactly(
            "Please file this.", "Uploaded file: " + name + ". It is saved into artifacts");
    Part saved =
        runner
            .artifactService()
            .loadArtifact(runner.appName(), "u", session.id(), name, (Integer) null)
            .blockingGet();
    assertThat(saved.inlineData().orElseThrow().data().orElseThrow()).isEqualTo(pdf);
    String seen = model.requests.get(0).contents().toString();
    assertThat(seen).contains("Uploaded file: " + name).doesNotContain("application/pdf");
  }

  /** A live model that transcribes: it answers a spoken blob with both transcriptions. */
  static final class TranscribingLiveModel extends BaseLlm {
    volatile LlmRequest connected;

    TranscribingLiveModel() {
      super("transcribing-live");
    }

    @Override
    public Flowable<LlmResponse> generateContent(LlmRequest llmRequest, boolean stream) {
      return Flowable.error(new UnsupportedOperationException("live only"));
    }

    @Override
    public BaseLlmConnection connect(LlmRequest llmRequest) {
      connected = llmRequest;
      ReplayProcessor<LlmResponse> responses = ReplayProcessor.create();
      return new BaseLlmConnection() {
        @Override
        public Completable sendHistory(List<Content> history) {
          return Completable.complete();
        }

        @Override
        public Completable sendContent(Content content) {
          return Completable.complete();
        }

        @Override
        public Completable sendRealtime(Blob blob) {
          return Completable.fromRunnable(
              () -> {
                responses.onNext(transcribed(true, "book a ", false));
                responses.onNext(transcribed(true, "table", true));
                responses.onNext(transcribed(false, "For how ", false));
                responses.onNext(transcribed(false, "many?", false));
                responses.onNext(
                    LlmResponse.builder().turnComplete(true).interrupted(true).build());
              });
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

    private static LlmResponse transcribed(boolean input, String text, boolean finished) {
      Transcription t = Transcription.builder().text(text).finished(finished).build();
      LlmResponse.Builder b = LlmResponse.builder().partial(true);
      return (input ? b.inputTranscription(t) : b.outputTranscription(t)).build();
    }
  }

  @Test
  void liveRun_asksForTranscriptions_andCarriesThemIntoTheEvents() {
    TranscribingLiveModel model = new TranscribingLiveModel();
    InMemoryRunner runner =
        new InMemoryRunner(LlmAgent.builder().name("host").model(model).build());
    Session session = runner.sessionService().createSession(runner.appName(), "u").blockingGet();
    AudioTranscriptionConfig transcribe = AudioTranscriptionConfig.builder().build();
    AvatarConfig avatar = AvatarConfig.builder().avatarName("host").build();
    LiveRequestQueue queue = new LiveRequestQueue();
    queue.realtime(Blob.builder().mimeType("audio/pcm").data(new byte[] {1, 2}).build());

    List<Event> events =
        runner
            .runLive(
                "u",
                session.id(),
                queue,
                RunConfig.builder()
                    .setInputAudioTranscription(transcribe)
                    .setOutputAudioTranscription(transcribe)
                    .avatarConfig(avatar)
                    .build())
            .doOnNext(
                e -> {
                  if (e.turnComplete().orElse(false)) {
                    queue.close();
                  }
                })
            .toList()
            .timeout(30, TimeUnit.SECONDS)
            .blockingGet();

    LiveConnectConfig live = model.connected.liveConnectConfig();
    assertThat(live.inputAudioTranscription()).contains(transcribe);
    assertThat(live.outputAudioTranscription()).contains(transcribe);
    assertThat(live.avatarConfig()).contains(avatar);
    assertThat(events)
        .filteredOn(e -> e.partial().orElse(false))
        .extracting(e -> e.author() + ":" + text(e))
        .containsExactly("user:book a ", "user:table", "host:For how ", "host:many?");
    List<Event> stored =
        runner
            .sessionService()
            .getSession(runner.appName(), "u", session.id())
            .blockingGet()
            .events();
    assertThat(stored).hasSize(2);
    assertThat(stored.get(0).author()).isEqualTo("user");
    assertThat(stored.get(0).inputTranscription().flatMap(Transcription::text))
        .contains("book a table");
    assertThat(stored.get(1).author()).isEqualTo("host");
    assertThat(stored.get(1).outputTranscription().flatMap(Transcription::text))
        .contains("For how many?");
    assertThat(stored.get(1).interrupted()).contains(true);
    assertThat(stored.get(1).turnComplete()).contains(true);
  }

  private static String text(Event e) {
    return e.inputTranscription()
        .or(e::outputTranscription)
        .flatMap(Transcription::text)
        .orElse("");
  }
}
