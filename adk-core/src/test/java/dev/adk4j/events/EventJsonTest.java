package dev.adk4j.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.internal.Json;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventJsonTest {

  private static Event sample() {
    Map<String, Object> delta = new HashMap<>();
    delta.put("task_status", "active");
    delta.put("user:login_count", 1);
    delta.put("removed_key", null);
    return Event.builder()
        .id("e1")
        .invocationId("inv_login_update")
        .author("system")
        .branch("root.child")
        .timestamp(1_700_000_000_123L)
        .turnComplete(true)
        .content(Content.builder().role("model").parts(List.of(Part.fromText("hello"))).build())
        .actions(
            EventActions.builder()
                .stateDelta(delta)
                .artifactDelta(Map.of("notes.txt", 0))
                .escalate(true)
                .build())
        .build();
  }

  @Test
  void pausedCallsAndConfirmationRequests_roundTripThroughJson_andAreLeftOutWhenAbsent()
      throws Exception {
    Map<String, Object> payload = new HashMap<>();
    payload.put("quantity", 2);
    Event e =
        Event.builder()
            .author("shop")
            .content(
                Content.builder()
                    .role("model")
                    .parts(
                        Part.builder()
                            .functionCall(FunctionCall.builder().id("c1").name("order").build())
                            .build())
                    .build())
            .longRunningToolIds(java.util.Set.of("c1"))
            .actions(
                EventActions.builder()
                    .requestToolConfirmation(
                        "c1", ToolConfirmation.builder().hint("How many?").payload(payload).build())
                    .build())
            .build();
    payload.put("quantity", 99); // the confirmation holds its own frozen copy
    JsonNode tree = Json.reader().readTree(e.toJson());
    assertThat(tree.get("longRunningToolIds").get(0).asText()).isEqualTo("c1");
    JsonNode asked = tree.get("actions").get("requestedToolConfirmations").get("c1");
    assertThat(asked.get("hint").asText()).isEqualTo("How many?");
    assertThat(asked.get("confirmed").asBoolean()).isFalse();
    assertThat(asked.get("payload").get("quantity").asInt()).isEqualTo(2);

    Event back = Event.fromJson(e.toJson());
    assertThat(back).isEqualTo(e);
    assertThat(back.hasPendingLongRunningToolCall()).isTrue();
    assertThat(back.finalResponse()).isTrue();
    assertThat(back.actions().requestedToolConfirmations().get("c1").payload())
        .isEqualTo(Map.of("quantity", 2));
    assertThatThrownBy(
            () ->
                back.actions()
                    .requestedToolConfirmations()
                    .put("c2", ToolConfirmation.builder().build()))
        .isInstanceOf(UnsupportedOperationException.class);

    JsonNode plain = Json.reader().readTree(sample().toJson());
    assertThat(plain.has("longRunningToolIds")).isFalse();
    assertThat(plain.get("actions").has("requestedToolConfirmations")).isFalse();
    assertThat(sample().hasPendingLongRunningToolCall()).isFalse();
  }

  @Test
  void event_roundTripsThroughJson_withCamelCaseNames() throws Exception {
    Event e = sample();
    String json = e.toJson();
    JsonNode tree = Json.reader().readTree(json);

    assertThat(tree.has("invocationId")).isTrue();
    assertThat(tree.get("actions").has("stateDelta")).isTrue();
    assertThat(tree.get("actions").has("artifactDelta")).isTrue();
    assertThat(tree.get("timestamp").asLong()).isEqualTo(1_700_000_000_123L);
    assertThat(tree.get("actions").get("stateDelta").get("removed_key").isNull()).isTrue();
    assertThat(tree.get("content").get("parts").get(0).get("text").asText()).isEqualTo("hello");

    Event back = Event.fromJson(json);
    assertThat(back).isEqualTo(e);
    assertThat(back.actions().stateDelta()).containsEntry("removed_key", null);
    assertThat(back.branch()).contains("root.child");
  }

  @Test
  void workflowNodeFields_roundTripThroughJson_withAdkNames_andAreLeftOutWhenAbsent()
      throws Exception {
    Event e =
        sample().toBuilder()
            .output(Map.of("team", "billing", "score", 3))
            .nodeInfo(new NodeInfo("triage/classify", "inv-1/ab12cd34"))
            .actions(sample().actions().toBuilder().route("billing").build())
            .build();
    JsonNode tree = Json.reader().readTree(e.toJson());

    assertThat(tree.get("output").get("team").asText()).isEqualTo("billing");
    assertThat(tree.get("nodeInfo").get("path").asText()).isEqualTo("triage/classify");
    assertThat(tree.get("nodeInfo").get("runId").asText()).isEqualTo("inv-1/ab12cd34");
    assertThat(tree.get("nodeInfo").has("name")).isFalse();
    assertThat(tree.get("actions").get("route").asText()).isEqualTo("billing");
    Event back = Event.fromJson(e.toJson());
    assertThat(back).isEqualTo(e);
    assertThat(back.nodeInfo().orElseThrow().name()).isEqualTo("classify");
    assertThat(back.actions().route()).contains("billing");
    assertThat(back.output()).contains(Map.of("team", "billing", "score", 3));
    assertThat(back.toBuilder().build()).isEqualTo(e);

    JsonNode plain = Json.reader().readTree(sample().toJson());
    assertThat(plain.has("output")).isFalse();
    assertThat(plain.has("nodeInfo")).isFalse();
    assertThat(plain.get("actions").has("route")).isFalse();
    assertThat(Event.fromJson(sample().toJson()).output()).isEmpty();
  }

  @Test
  void compactionEvent_roundTripsThroughJson() {
    EventCompaction compaction =
        new EventCompaction(
            100,
            200,
            com.google.genai.types.Content.fromParts(
                com.google.genai.types.Part.fromText("The user asked about cats.")));
    Event e =
        Event.builder()
            .author("user")
            .actions(EventActions.builder().compaction(compaction).build())
            .build();
    Event back = Event.fromJson(e.toJson());
    assertThat(back.actions().compaction()).contains(compaction);
    assertThat(back.actions().isEmpty()).isFalse();
    assertThatThrownBy(() -> new EventCompaction(5, 4, compaction.compactedContent()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void eventsBuiltWithoutIdOrTimestamp_getThem() {
    long before = System.currentTimeMillis();
    Event e = Event.builder().author("a").build();
    assertThat(e.id()).isNotBlank();
    assertThat(e.timestamp()).isBetween(before, System.currentTimeMillis());
    assertThat(Event.builder().build().id()).isNotEqualTo(e.id());
  }

  @Test
  void toBuilder_copies() {
    Event e = sample();
    Event changed = e.toBuilder().author("other").build();
    assertThat(changed.author()).isEqualTo("other");
    assertThat(changed.id()).isEqualTo(e.id());
    assertThat(e.author()).isEqualTo("system");
  }

  @Test
  void finalResponse_followsAdk() {
    Content text = Content.fromParts(Part.fromText("done"));
    assertThat(Event.builder().content(text).build().finalResponse()).isTrue();
    assertThat(Event.builder().content(text).partial(true).build().finalResponse()).isFalse();
    Content call =
        Content.fromParts(
            Part.builder().functionCall(FunctionCall.builder().name("f").build()).build());
    assertThat(Event.builder().content(call).build().finalResponse()).isFalse();
    Content response =
        Content.fromParts(
            Part.builder()
                .functionResponse(
                    FunctionResponse.builder().name("f").response(Map.of("r", 1)).build())
                .build());
    Event toolResult = Event.builder().content(response).build();
    assertThat(toolResult.finalResponse()).isFalse();
    Event skipped =
        toolResult.toBuilder()
            .actions(EventActions.builder().skipSummarization(true).build())
            .build();
    assertThat(skipped.finalResponse()).isTrue();
    assertThat(Event.builder().build().finalResponse()).isTrue();
  }

  @Test
  void eventActions_areImmutable_andNormalizeRemovedSentinel() {
    Map<String, Object> delta = new HashMap<>();
    delta.put("k", dev.adk4j.state.State.REMOVED);
    EventActions a = EventActions.builder().stateDelta(delta).build();
    delta.put("later", 1);
    assertThat(a.stateDelta()).containsOnlyKeys("k");
    assertThat(a.stateDelta().get("k")).isNull();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> a.stateDelta().put("x", 1))
        .isInstanceOf(UnsupportedOperationException.class);
    EventActions merged = a.merge(EventActions.builder().putState("x", 2).escalate(true).build());
    assertThat(merged.stateDelta()).containsOnlyKeys("k", "x");
    assertThat(merged.escalate()).contains(true);
  }

  @Test
  void stringifyContent_skipsThoughts() {
    Content c =
        Content.builder()
            .parts(
                List.of(
                    Part.builder().text("thinking").thought(true).build(),
                    Part.fromText("a"),
                    Part.fromText("b")))
            .build();
    assertThat(Event.builder().content(c).build().stringifyContent()).isEqualTo("ab");
  }
}
