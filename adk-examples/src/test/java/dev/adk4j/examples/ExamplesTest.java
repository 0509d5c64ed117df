package dev.adk4j.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.events.Event;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each example's outcome, on the in-memory service with the demo model. */
class ExamplesTest {

  final InMemorySessionService sessions = new InMemorySessionService();
  final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  final Transcript t = new Transcript(new PrintStream(bytes, true, StandardCharsets.UTF_8));

  String printed() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void initialState_isRoutedByPrefix_andReadBack() {
    Session s = InitialStateExample.run(sessions, t);
    assertThat(s.state())
        .containsEntry("topic", "Getting started")
        .containsEntry("app:version", "1.0.0")
        .containsEntry("user:name", "Alice");
    assertThat(printed()).contains("topic       = Getting started").contains("app:version = 1.0.0");
    Session other = sessions.createSession("my_app", "someone_else", null, null).blockingGet();
    assertThat(other.state()).containsEntry("app:version", "1.0.0").doesNotContainKey("user:name");
  }

  @Test
  void stateHistory_listsEachChange_acrossSessions_removalsIncluded() {
    List<dev.adk4j.sessions.StateChange> theme = StateHistoryExample.run(sessions, t);
    assertThat(theme)
        .extracting(dev.adk4j.sessions.StateChange::value)
        .containsExactly("dark", "light", "sepia");
    assertThat(theme)
        .extracting(dev.adk4j.sessions.StateChange::sessionId)
        .containsExactly("laptop", "phone", "laptop");
    assertThat(printed())
        .contains("user:theme = dark by settings-page in session laptop")
        .contains("user:theme = light by theme-tool in session phone")
        .contains("draft = Dear Bo by settings-page in session laptop")
        .contains("draft = (removed) by settings-page in session laptop");
  }

  @Test
  void memory_recallsLastWeeksFact_forTheSameUserOnly() {
    dev.adk4j.memory.InMemoryMemoryService memory = new dev.adk4j.memory.InMemoryMemoryService();
    MemoryExample.run(sessions, memory, t);
    assertThat(printed())
        .contains(
            "[Planner] From our past conversations: [2026-01-15T10:00:00Z] user: I am allergic"
                + " to peanuts")
        .contains("[Searcher] calls load_memory{\"query\":\"allergic\"}")
        .contains("[Searcher] load_memory returned {\"memories\":[{\"content\"")
        .contains("[Planner] I don't know anything about you yet")
        .contains("user8's search for 'peanuts' found 0 memories");
    assertThat(memory.searchMemory("memory_app", "user7", "peanuts").blockingGet().memories())
        .hasSize(2);
  }

  @Test
  void greeting_storesTheReplyUnderLastGreeting() {
    Session s = GreetingAgentExample.run(sessions, t);
    assertThat(s.state()).containsEntry("last_greeting", "Hello there! How can I help you today?");
    assertThat(printed()).contains("[Greeter] Hello there!").contains("\"last_greeting\"");
  }

  @Test
  void manualUpdate_appliesEveryScope_andDropsTemp() {
    Session s = ManualStateUpdateExample.run(sessions, t);
    assertThat(s.state())
        .containsEntry("task_status", "active")
        .containsEntry("user:login_count", 1)
        .containsKey("user:last_login_ts")
        .doesNotContainKey("temp:validation_needed");
    assertThat(s.events().get(0).actions().stateDelta())
        .doesNotContainKey("temp:validation_needed");
    assertThat(printed()).contains("temp:validation_needed on the passed session object: null");
  }

  @Test
  void a2a_twoTurnsThroughTwoServers_planInUserState() throws Exception {
    Session after = A2aExample.run(sessions, t);
    assertThat(after.state())
        .containsEntry("user:last_plan", "A picnic on the banks of the Saône.");
    assertThat(after.state()).containsKey("a2a:trips:context_id");
    assertThat(after.events())
        .extracting(dev.adk4j.events.Event::author)
        .containsExactly("user", "trips", "user", "trips");
  }

  @Test
  void mcpTools_argumentsFromState_resultInUserState() {
    Session after = McpToolsExample.run(sessions, t);
    assertThat(after.state())
        .containsEntry(
            "user:last_forecast", java.util.Map.of("city", "Lyon", "sky", "sunny", "high_c", 21));
    dev.adk4j.events.Event response =
        after.events().stream()
            .filter(e -> !e.functionResponses().isEmpty())
            .findFirst()
            .orElseThrow();
    assertThat(response.actions().stateDelta()).containsKey("user:last_forecast");
  }

  @Test
  void toolState_countsInStorage_tempOnlyDuringTheRun() {
    ToolStateExample.Outcome outcome = ToolStateExample.run(sessions, t);
    assertThat(outcome.session().state())
        .containsEntry("user_action_count", 2)
        .doesNotContainKey("temp:last_operation_status");
    assertThat(outcome.tempDuringRun()).containsExactly("success", "success");
    assertThat(printed()).contains("[ToolAgent] calls update_action_count{}");
  }

  @Test
  void agentTool_childWritesArriveOnce_childEventsStayOut_tempStaysInTheChild() {
    Session s = AgentToolExample.run(sessions, t);
    assertThat(s.state())
        .containsEntry("lookups", 2)
        .containsKey("research")
        .doesNotContainKey("temp:researcher_note");
    assertThat(s.events()).extracting(Event::author).containsOnly("user", "Assistant");
    assertThat(s.events().stream().filter(e -> e.actions().stateDelta().containsKey("lookups")))
        .hasSize(2)
        .allSatisfy(e -> assertThat(e.functionResponses()).hasSize(1));
    assertThat(printed())
        .contains("[Assistant] calls Researcher")
        .contains("function-response event: [lookups, research]");
  }

  @Test
  void parallelTools_bothCallsInOneEvent_laterCallWins() {
    Session s = ParallelToolsExample.run(sessions, t);
    assertThat(s.state())
        .containsEntry("weather", "sunny")
        .containsEntry("hotel", "booked")
        .containsEntry("advice", "bring the booking");
    Event responses = s.events().get(2);
    assertThat(responses.functionResponses())
        .extracting(r -> r.name().orElse(""))
        .containsExactly("check_weather", "check_hotel");
    assertThat(printed()).contains("advice = bring the booking");
  }

  @Test
  void humanInTheLoop_pausesOnOneInstance_resumesOnAnother_toolRunsOnce(@TempDir Path dir) {
    Session payment = HumanInTheLoopExample.run(dir, t);
    assertThat(payment.state()).containsEntry("user:reimbursements", 1);
    List<Event> events = payment.events();
    // user, call, "waits for a person", request, the approval, the payment, the model's answer
    assertThat(events).hasSize(7);
    assertThat(events.get(3).functionCalls().get(0).name())
        .contains(dev.adk4j.events.ToolConfirmation.REQUEST_FUNCTION_NAME);
    assertThat(events.get(5).functionResponses().get(0).response().orElseThrow())
        .containsEntry("paid", 120);
    assertThat(printed())
        .contains("Pending call ask_for_approval, long-running: true")
        .contains("Same invocation: true")
        .contains(
            "[PaymentAgent] asks a person to confirm reimburse{\"amount\":120}: Approve or"
                + " reject this call of tool 'reimburse'")
        .contains("Pending: adk_request_confirmation, long-running: true")
        .contains("user:open_ticket");
  }

  @Test
  void plugins_globalInstructionEverywhere_auditWritesInTheStepsEvent_guardAnswers() {
    Session s = PluginsExample.run(sessions, t);
    assertThat(s.state())
        .containsEntry("audit_tool_calls", 1)
        .containsEntry("audit_refusals", 1)
        .containsEntry("app:hotel", "Hotel Adk");
    Event toolResponse = s.events().get(2);
    assertThat(toolResponse.functionResponses()).hasSize(1);
    assertThat(toolResponse.actions().stateDelta()).containsEntry("audit_tool_calls", 1);
    Event refusal = s.events().get(s.events().size() - 1);
    assertThat(refusal.stringifyContent()).isEqualTo("I cannot help with passwords.");
    assertThat(refusal.actions().stateDelta()).containsEntry("audit_refusals", 1);
    assertThat(printed())
        .contains("System instruction the model got: You speak for Hotel Adk. Be courteous. |")
        .contains("Function-response event writes: [audit_tool_calls]");
  }

  @Test
  void tracing_spansForInvocationAgentModelAndTool_stateKeysWithoutValues() {
    List<io.opentelemetry.sdk.trace.data.SpanData> spans = TracingExample.run(sessions, t);
    assertThat(spans)
        .extracting(io.opentelemetry.sdk.trace.data.SpanData::getName)
        .contains(
            "invocation", "invoke_agent ToolAgent", "call_llm", "execute_tool update_action_count");
    assertThat(printed())
        .contains("  invocation")
        .contains("    invoke_agent ToolAgent  [gen_ai.operation.name=invoke_agent]")
        .contains("state keys written: [user_action_count]");
  }

  @Test
  void callbackState_isItsOwnContentlessEvent() {
    Session s = CallbackStateExample.run(sessions, t);
    assertThat(s.state())
        .containsEntry("user:answers_given", 1)
        .doesNotContainKey("temp:last_operation_status");
    Event last = s.events().get(s.events().size() - 1);
    assertThat(last.author()).isEqualTo("Helper");
    assertThat(last.content()).isEmpty();
    assertThat(last.actions().stateDelta()).containsEntry("user:answers_given", 1);
  }

  @Test
  void templating_rendersEachFormAsDocumented() {
    List<String> instructions = TemplatingExample.run(sessions, t);
    assertThat(instructions)
        .containsExactly(
            "You are helping Alice with state management. Their preferred language is French.",
            "Current topic, if any: [].",
            "This is an instruction with {{literal_braces}} that will not be replaced.",
            "This is a dynamic instruction with {{literal_braces}}.");
  }

  @Test
  void pipeline_passesTheDraftThroughTemp_andStoresNoTempKey() {
    Session s = PipelineExample.run(sessions, t);
    assertThat((String) s.state().get("review"))
        .contains("Cats are curious, independent and playful.");
    assertThat(s.state())
        .containsEntry("summary_en", "Cats: curious and playful.")
        .containsEntry("summary_fr", "Les chats : curieux et joueurs.");
    assertThat(s.state().keySet()).noneMatch(k -> k.startsWith("temp:"));
    assertThat(s.events())
        .filteredOn(e -> "english".equals(e.author()))
        .allSatisfy(e -> assertThat(e.branch()).contains("pipeline.summaries.english"));
  }

  @Test
  void persistence_countsVisitsAcrossRestarts(@TempDir Path dir) {
    Path file = dir.resolve("nested/visits.db");
    assertThat(PersistenceExample.runOnce(file, t)).isEqualTo(1);
    assertThat(PersistenceExample.runOnce(file, t)).isEqualTo(2);
  }

  @Test
  void compaction_storesSummaries_andTheModelReceivesTheLatestOnePlusWhatFollowed() {
    CompactionExample.run(sessions, t);
    var events = sessions.listEvents("travel_app", "user1", "trip").blockingGet().events();
    assertThat(events).hasSize(12); // 5 turns of 2 events, 2 compaction events
    assertThat(events.stream().filter(e -> e.actions().compaction().isPresent())).hasSize(2);
    // Turn 5's request: the summary, turn 5's message (the summary covers turns 1 to 4).
    assertThat(printed())
        .contains("Noted (I received 2 messages).")
        .contains("latest summary: The user plans a May trip to Lisbon");
  }

  @Test
  void secretState_toolsShareATokenThatNoEventNorTheTranscriptShows(@TempDir Path dir) {
    assertThat(SecretStateExample.run(sessions, dir, t)).isTrue();
    assertThat(printed())
        .contains("\"secret:api_token\":\"***\"")
        .contains("\"authorized\":true")
        .contains("after a restart the token is readable again: true")
        .doesNotContain(SecretStateExample.DEMO_TOKEN);
    assertThat(new String(readAll(dir.resolve("secrets.db")), StandardCharsets.ISO_8859_1))
        .doesNotContain(SecretStateExample.DEMO_TOKEN);
  }

  private static byte[] readAll(Path file) {
    try {
      return java.nio.file.Files.readAllBytes(file);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void expiry_hidesExpiredSessions_purgesThemInBatches_andTrimsIdleOnes() {
    ExpiryExample.Outcome o = ExpiryExample.run(t);
    assertThat(o.visibleAfterActivity()).isTrue();
    assertThat(o.visibleAfterExpiry()).isFalse();
    assertThat(o.purge().expiredSessions()).isEqualTo(1);
    assertThat(o.retention().expiredSessions()).isEqualTo(1);
    assertThat(o.retention().trimmedEvents()).isEqualTo(3);
    assertThat(o.eventsLeft()).isEqualTo(2);
    assertThat(printed()).contains("user:plan = pro").contains("step = 5");
  }

  @Test
  void rewind_restoresTheStateOfBeforeTheSecondTurn_andKeepsEveryEvent() {
    Session after = RewindExample.run(sessions, t);
    assertThat(after.state()).containsEntry("destination", "Lisbon").containsEntry("changes", 1);
    assertThat(after.events())
        .anySatisfy(e -> assertThat(e.actions().rewindBeforeInvocationId()).isPresent());
    assertThat(printed()).contains("Go to Rome.");
  }
}
