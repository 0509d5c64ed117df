package dev.adk4j.compat;

// ADK for Java: com.google.adk.agents.*, com.google.adk.artifacts.InMemoryArtifactService,
// com.google.adk.events.ToolConfirmation,
// com.google.adk.sessions.Session, com.google.adk.tools.ToolContext (prefix swap only).
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import com.google.genai.types.Part;
import dev.adk4j.agents.CallbackContext;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.artifacts.InMemoryArtifactService;
import dev.adk4j.events.ToolConfirmation;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.ToolContext;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A tool or callback context made from a mocked {@code InvocationContext}, as ADK for Java's own
 * unit tests make them: it works, on state of its own that starts as a copy of the mocked
 * session's.
 */
class MockedContextProgramTest {

  @Test
  void toolContext_overAMock_recordsStateWritesAndConfirmationRequests() {
    InvocationContext invocation = mock(InvocationContext.class);
    Session session =
        Session.builder("s1").appName("app").userId("u").state(Map.of("seen", 1)).build();
    when(invocation.session()).thenReturn(session);
    InMemoryArtifactService artifacts = new InMemoryArtifactService();
    artifacts.saveArtifact("app", "u", "s1", "receipt.txt", Part.fromText("20 EUR")).blockingGet();
    when(invocation.artifactService()).thenReturn(artifacts);

    ToolContext toolContext = ToolContext.builder(invocation).functionCallId("call-1").build();
    toolContext.state().put("answer", "yes");
    toolContext.requestConfirmation("Refund 20 EUR?", Map.of("amount", 20));

    assertThat(toolContext.state().get("seen")).isEqualTo(1);
    // The artifacts are the mocked session's (its app, user and id).
    assertThat(toolContext.listArtifacts().blockingGet()).containsExactly("receipt.txt");
    assertThat(toolContext.actions().stateDelta()).containsExactly(Map.entry("answer", "yes"));
    assertThat(toolContext.actions().requestedToolConfirmations())
        .containsExactly(
            Map.entry(
                "call-1",
                ToolConfirmation.builder()
                    .hint("Refund 20 EUR?")
                    .payload(Map.of("amount", 20))
                    .build()));
    // The mocked session is not written: the context's state is a copy.
    assertThat(session.state()).doesNotContainKey("answer");
  }

  @Test
  void callbackContext_overAMockWithoutASession_startsWithEmptyState() {
    CallbackContext callbackContext = new CallbackContext(mock(InvocationContext.class));

    callbackContext.state().put("k", "v");

    assertThat(callbackContext.state().get("k")).isEqualTo("v");
    assertThat(callbackContext.actions().stateDelta()).containsEntry("k", "v");
  }
}
