package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SessionJsonTest {

  @Test
  void session_roundTripsThroughJson() throws Exception {
    Event e =
        Event.builder()
            .author("user")
            .timestamp(5000L)
            .content(Content.fromParts(Part.fromText("hi")))
            .build();
    Session s =
        Session.builder("s1")
            .appName("app")
            .userId("alice")
            .state(Map.of("user:name", "Alice", "profile", Map.of("theme", "dark")))
            .events(List.of(e))
            .lastUpdateTime(Instant.ofEpochMilli(5000L))
            .revision(3)
            .build();

    String json = s.toJson();
    JsonNode tree = Json.reader().readTree(json);
    assertThat(tree.has("appName")).isTrue();
    assertThat(tree.has("userId")).isTrue();
    assertThat(tree.has("lastUpdateTime")).isTrue();

    Session back = Session.fromJson(json);
    assertThat(back.id()).isEqualTo("s1");
    assertThat(back.appName()).isEqualTo("app");
    assertThat(back.userId()).isEqualTo("alice");
    assertThat(back.state()).isEqualTo(s.state());
    assertThat(back.events()).containsExactly(e);
    assertThat(back.lastUpdateTime()).isEqualTo(s.lastUpdateTime());
    assertThat(back.revision()).isEqualTo(3);
  }
}
