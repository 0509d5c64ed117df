package dev.adk4j.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code hasPendingLongRunningToolCall()} and {@code finalResponse()} answer as ADK for Java's. */
class EventAdkAnswersTest {

  static Event withCall(String callId, Set<String> longRunningIds) {
    FunctionCall call = FunctionCall.builder().id(callId).name("book").args(Map.of()).build();
    return Event.builder()
        .author("agent")
        .content(
            Content.builder()
                .role("model")
                .parts(List.of(Part.builder().functionCall(call).build()))
                .build())
        .longRunningToolIds(longRunningIds)
        .build();
  }

  @Test
  void idsNamingACallOfTheEvent_arePending_andFinal() {
    Event e = withCall("c1", Set.of("c1"));
    assertThat(e.hasPendingLongRunningToolCall()).isTrue();
    assertThat(e.finalResponse()).isTrue();
  }

  @Test
  void idsNamingNoCallOfTheEvent_arePendingAsInAdk() {
    Event e = withCall("c1", Set.of("elsewhere"));
    assertThat(e.hasPendingLongRunningToolCall()).isTrue();
    assertThat(e.finalResponse()).isTrue();

    Event textOnly = Event.builder().author("agent").longRunningToolIds(Set.of("x")).build();
    assertThat(textOnly.hasPendingLongRunningToolCall()).isTrue();
  }

  @Test
  void noOrEmptyIds_areNotPending() {
    assertThat(withCall("c1", Set.of()).hasPendingLongRunningToolCall()).isFalse();
    assertThat(withCall("c1", Set.of()).finalResponse()).isFalse();
    assertThat(Event.builder().author("agent").build().hasPendingLongRunningToolCall()).isFalse();
  }
}
