package dev.adk4j.compat;

// ADK for Java: com.google.adk.agents.*, com.google.adk.events.*, com.google.adk.models.*,
// com.google.adk.runner.InMemoryRunner, com.google.adk.sessions.Session (prefix swap only).
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.genai.types.Content;
import com.google.genai.types.CustomMetadata;
import com.google.genai.types.FinishReason;
import com.google.genai.types.GroundingChunk;
import com.google.genai.types.GroundingChunkWeb;
import com.google.genai.types.GroundingMetadata;
import com.google.genai.types.Part;
import com.google.genai.types.Transcription;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.sessions.Session;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The fields ADK for Java's {@code Event} and {@code LlmResponse} have besides content and errors:
 * {@code finishReason}, {@code groundingMetadata}, {@code avgLogprobs}, {@code interrupted}, {@code
 * customMetadata}, {@code modelVersion} and the transcriptions; in their builders, {@code
 * toBuilder}, {@code equals} and JSON (ADK's camelCase names), and carried from the model's
 * response to the event the agent stores.
 */
class EventAndResponseFieldsProgramTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final GroundingMetadata GROUNDING =
      GroundingMetadata.builder()
          .webSearchQueries(List.of("adk java"))
          .groundingChunks(
              List.of(
                  GroundingChunk.builder()
                      .web(GroundingChunkWeb.builder().uri("https://example.org/adk").build())
                      .build()))
          .build();

  private static final CustomMetadata TIER =
      CustomMetadata.builder().key("tier").stringValue("gold").build();

  private static Content text(String text) {
    return Content.builder().role("model").parts(List.of(Part.fromText(text))).build();
  }

  private static LlmResponse fullResponse() {
    return LlmResponse.builder()
        .content(text("Grounded answer"))
        .turnComplete(true)
        .finishReason(new FinishReason(FinishReason.Known.STOP))
        .groundingMetadata(GROUNDING)
        .avgLogprobs(-0.25)
        .interrupted(false)
        .customMetadata(List.of(TIER))
        .modelVersion("gemini-2.5-flash-001")
        .inputTranscription(Transcription.builder().text("what is adk").finished(true).build())
        .outputTranscription(Transcription.builder().text("a kit").finished(false).build())
        .build();
  }

  @Test
  void llmResponse_allFields_roundTripThroughAdksJsonNames() throws Exception {
    LlmResponse response = fullResponse();

    String json = response.toJson();
    JsonNode node = JSON.readTree(json);
    LlmResponse back = LlmResponse.fromJsonString(json, LlmResponse.class);

    assertThat(node.get("finishReason").asText()).isEqualTo("STOP");
    assertThat(node.get("modelVersion").asText()).isEqualTo("gemini-2.5-flash-001");
    assertThat(node.get("avgLogprobs").asDouble()).isEqualTo(-0.25);
    assertThat(node.get("interrupted").asBoolean(true)).isFalse();
    assertThat(node.get("groundingMetadata").get("webSearchQueries").get(0).asText())
        .isEqualTo("adk java");
    assertThat(node.get("inputTranscription").get("text").asText()).isEqualTo("what is adk");
    assertThat(node.get("outputTranscription").get("finished").asBoolean(true)).isFalse();
    assertThat(node.get("customMetadata").get(0).get("key").asText()).isEqualTo("tier");
    assertThat(back).isEqualTo(response);
    assertThat(back.toBuilder().build()).isEqualTo(response);
    assertThat(back.finishReason()).contains(new FinishReason(FinishReason.Known.STOP));
    assertThat(back.groundingMetadata()).contains(GROUNDING);
    assertThat(back.customMetadata()).contains(List.of(TIER));
  }

  @Test
  void llmResponse_unsetFields_areEmpty_leftOutOfJson_andNullsReadAsEmpty() throws Exception {
    LlmResponse plain = LlmResponse.builder().content(text("hi")).build();

    JsonNode node = JSON.readTree(plain.toJson());
    LlmResponse fromNulls =
        LlmResponse.fromJsonString(
            "{\"content\":{\"parts\":[{\"text\":\"hi\"}]},\"finishReason\":null,"
                + "\"groundingMetadata\":null,\"interrupted\":null,\"avgLogprobs\":null}",
            LlmResponse.class);

    assertThat(node.has("finishReason")).isFalse();
    assertThat(node.has("interrupted")).isFalse();
    assertThat(node.has("groundingMetadata")).isFalse();
    assertThat(plain.inputTranscription()).isEmpty();
    assertThat(plain.outputTranscription()).isEmpty();
    assertThat(fromNulls.finishReason()).isEmpty();
    assertThat(fromNulls.interrupted()).isEmpty();
    assertThat(fromNulls.groundingMetadata()).isEmpty();
    assertThat(fromNulls.avgLogprobs()).isEmpty();
    assertThat(fromNulls.content()).isPresent();
  }

  @Test
  void event_allFields_inBuilderToBuilderEqualsAndJson() throws Exception {
    Event event =
        Event.builder()
            .id("e1")
            .invocationId("inv")
            .author("agent")
            .content(text("Grounded answer"))
            .timestamp(1234L)
            .finishReason(new FinishReason(FinishReason.Known.MAX_TOKENS))
            .groundingMetadata(GROUNDING)
            .avgLogprobs(-0.5)
            .interrupted(true)
            .customMetadata(List.of(TIER))
            .modelVersion("m-1")
            .inputTranscription(Transcription.builder().text("hello").build())
            .outputTranscription(Transcription.builder().text("hi").finished(true).build())
            .build();

    JsonNode node = JSON.readTree(event.toJson());
    Event back = Event.fromJsonString(event.toJson(), Event.class);

    assertThat(node.get("finishReason").asText()).isEqualTo("MAX_TOKENS");
    assertThat(node.get("interrupted").asBoolean()).isTrue();
    assertThat(node.get("modelVersion").asText()).isEqualTo("m-1");
    assertThat(back).isEqualTo(event);
    assertThat(event.toBuilder().build()).isEqualTo(event);
    assertThat(event.toBuilder().interrupted(false).build()).isNotEqualTo(event);
    assertThat(back.avgLogprobs()).contains(-0.5);
    assertThat(back.outputTranscription().flatMap(Transcription::text)).contains("hi");
    Event plain = Event.builder().author("agent").build();
    assertThat(plain.finishReason()).isEmpty();
    assertThat(plain.modelVersion()).isEmpty();
    assertThat(JSON.readTree(plain.toJson()).has("customMetadata")).isFalse();
  }

  @Test
  void event_customMetadataWrittenByAdkForPython_asAnObject_readsAsEntries() {
    Event event =
        Event.fromJson(
            "{\"id\":\"e1\",\"author\":\"agent\",\"timestamp\":1,"
                + "\"customMetadata\":{\"tier\":\"gold\",\"score\":2,\"tags\":[\"a\",\"b\"]}}");

    List<CustomMetadata> entries = event.customMetadata().orElseThrow();

    assertThat(entries).hasSize(3);
    assertThat(entries.get(0)).isEqualTo(TIER);
    assertThat(entries.get(1).key()).contains("score");
    assertThat(entries.get(1).numericValue()).contains(2f);
    assertThat(entries.get(2).stringListValue().orElseThrow().values()).contains(List.of("a", "b"));
  }

  @Test
  void response_readsCustomMetadataAsAnObjectToo_likeAnEvent() {
    LlmResponse response =
        LlmResponse.fromJsonString("{\"customMetadata\":{\"tier\":\"gold\"}}", LlmResponse.class);

    assertThat(response.customMetadata()).contains(List.of(TIER));
    assertThat(LlmResponse.fromJsonString(response.toJson(), LlmResponse.class))
        .isEqualTo(response);
  }

  @Test
  void agentRun_carriesTheResponseFields_andTheRunsCustomMetadata_intoTheStoredEvent() {
    QueueModel model = new QueueModel(fullResponse());
    LlmAgent agent = LlmAgent.builder().name("researcher").model(model).build();
    InMemoryRunner runner = new InMemoryRunner(agent);
    Session session = runner.sessionService().createSession(runner.appName(), "u").blockingGet();
    RunConfig config = RunConfig.builder().customMetadata(Map.of("request_id", "r-42")).build();

    List<Event> emitted =
        runner
            .runAsync("u", session.id(), Content.fromParts(Part.fromText("search")), config)
            .toList()
            .blockingGet();
    Event stored =
        runner
            .sessionService()
            .getSession(runner.appName(), "u", session.id())
            .blockingGet()
            .events()
            .get(1);

    assertThat(emitted).last().isEqualTo(stored);
    assertThat(stored.author()).isEqualTo("researcher");
    assertThat(stored.finishReason()).contains(new FinishReason(FinishReason.Known.STOP));
    assertThat(stored.groundingMetadata()).contains(GROUNDING);
    assertThat(stored.avgLogprobs()).contains(-0.25);
    assertThat(stored.modelVersion()).contains("gemini-2.5-flash-001");
    assertThat(stored.interrupted()).contains(false);
    assertThat(stored.inputTranscription().flatMap(Transcription::text)).contains("what is adk");
    assertThat(stored.customMetadata().orElseThrow())
        .containsExactly(
            TIER, CustomMetadata.builder().key("request_id").stringValue("r-42").build());
  }
}
