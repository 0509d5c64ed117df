package dev.adk4j.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.GenerateContentResponseUsageMetadata;
import org.junit.jupiter.api.Test;

class EventUsageTest {

  @Test
  void usageMetadata_survivesTheJsonRoundTrip_andIsAbsentByDefault() {
    Event e =
        Event.builder()
            .author("a")
            .usageMetadata(
                GenerateContentResponseUsageMetadata.builder()
                    .promptTokenCount(11)
                    .candidatesTokenCount(7)
                    .totalTokenCount(18)
                    .build())
            .build();

    Event back = Event.fromJson(e.toJson());

    assertThat(back).isEqualTo(e);
    assertThat(back.usageMetadata().orElseThrow().totalTokenCount()).contains(18);
    assertThat(e.toBuilder().build().usageMetadata()).isEqualTo(e.usageMetadata());
    assertThat(Event.builder().author("a").build().usageMetadata()).isEmpty();
    assertThat(Event.builder().author("a").build().toJson()).doesNotContain("usageMetadata");
  }
}
