package dev.adk4j.compat;

// ADK for Java: com.google.adk.agents.*, com.google.adk.events.* (EventActions too),
// com.google.adk.sessions.*
// (prefix swap), com.google.adk.utils.InstructionUtils -> dev.adk4j.agents.InstructionUtils
// (the guide's import table).
import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import dev.adk4j.agents.InstructionUtils;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Events (builder, JSON, final-response rules) and instruction templating. */
class EventsAndTemplatingProgramTest {

  @Test
  void event_builder_toJson_fromJson_andFinalResponse() {
    Event call =
        Event.builder()
            .id(Event.generateEventId())
            .invocationId("inv")
            .author("agent")
            .content(
                Content.builder()
                    .role("model")
                    .parts(
                        List.of(
                            Part.builder()
                                .functionCall(
                                    FunctionCall.builder().id("c1").name("approve").build())
                                .build()))
                    .build())
            .longRunningToolIds(Set.of("c1"))
            .build();

    Event back = Event.fromJson(call.toJson());

    assertThat(back).isEqualTo(call);
    assertThat(back.functionCalls()).hasSize(1);
    assertThat(back.hasPendingLongRunningToolCall()).isTrue();
    assertThat(back.finalResponse()).isTrue();
    // ADK answers from the ids alone, whether or not they name a call of this event.
    assertThat(
            Event.builder()
                .author("agent")
                .longRunningToolIds(Set.of("elsewhere"))
                .build()
                .hasPendingLongRunningToolCall())
        .isTrue();
  }

  @Test
  void injectSessionState_fillsPlaceholders_andOptionalOnes() {
    InMemorySessionService sessions = new InMemorySessionService();
    ConcurrentHashMap<String, Object> state = new ConcurrentHashMap<>();
    state.put("name", "Ada");
    state.put("app:greeting", "Hello");
    Session session = sessions.createSession("app", "u", state, null).blockingGet();
    InvocationContext invocationContext =
        InvocationContext.builder()
            .sessionService(sessions)
            .agent(LlmAgent.builder().name("greeter").model(new QueueModel()).build())
            .session(session)
            .build();

    String text =
        InstructionUtils.injectSessionState(invocationContext, "{app:greeting}, {name}! [{mood?}]")
            .blockingGet();

    assertThat(text).isEqualTo("Hello, Ada! []");
  }

  @Test
  void eventActions_builderMerge_andAdksJsonHelpers() {
    EventActions first =
        EventActions.builder().stateDelta(Map.of("a", 1, "b", 1)).transferToAgent("x").build();
    EventActions second = EventActions.builder().stateDelta(Map.of("b", 2)).escalate(true).build();

    EventActions merged = first.toBuilder().merge(second).build();

    assertThat(merged.stateDelta()).isEqualTo(Map.of("a", 1, "b", 2));
    assertThat(merged.transferToAgent()).contains("x");
    assertThat(merged.escalate()).contains(true);
    assertThat(EventActions.fromJsonString(merged.toJson(), EventActions.class)).isEqualTo(merged);

    Event event = Event.builder().invocationId("inv").author("agent").actions(merged).build();
    assertThat(Event.fromJsonString(event.toJson(), Event.class)).isEqualTo(event);
  }
}
