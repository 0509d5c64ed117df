package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.LoopAgent;
import dev.adk4j.agents.SequentialAgent;
import dev.adk4j.events.Event;
import dev.adk4j.events.ToolConfirmation;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.LongRunningFunctionTool;
import dev.adk4j.tools.ToolContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Long-running tools and tool confirmations pause an invocation with the pending call recorded in
 * the session, and a later message answering the call resumes it, on a second runner over a second
 * session service object of the same store (a SQLite file, a PostgreSQL database): the first
 * instance's tools, models and caches are not used. In memory, both runners share one service.
 */
class LongRunningToolsTest {

  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  @TempDir static Path dir;
  static final AtomicInteger N = new AtomicInteger();
  static final List<AutoCloseable> OPENED = new ArrayList<>();

  enum Backend {
    MEMORY,
    SQLITE,
    POSTGRES
  }

  /** Two service objects over one store (one shared object in memory). */
  record Store(BaseSessionService first, BaseSessionService second, String app) {
    Session stored() {
      return second.getSession(app, "u", "s").blockingGet();
    }

    int eventCount() {
      return first.getSession(app, "u", "s").blockingGet().events().size();
    }
  }

  final List<AutoCloseable> perTest = new ArrayList<>();

  @AfterEach
  void closePerTest() throws Exception {
    for (AutoCloseable c : perTest) {
      c.close();
    }
    perTest.clear();
  }

  @AfterAll
  static void dropDatabases() throws Exception {
    POSTGRES.dropDatabases();
  }

  Store store(Backend backend) throws Exception {
    String app = "hitl_" + N.incrementAndGet();
    BaseSessionService first;
    BaseSessionService second;
    switch (backend) {
      case MEMORY -> {
        first = new InMemorySessionService();
        second = first;
      }
      case SQLITE -> {
        String url = "jdbc:sqlite:" + dir.resolve(app + ".db");
        first = open(new DatabaseSessionService(url));
        second = open(new DatabaseSessionService(url));
      }
      default -> {
        String url = POSTGRES.newMigratedDatabase();
        first = open(new DatabaseSessionService(url));
        second = open(new DatabaseSessionService(url));
      }
    }
    first.createSession(app, "u", null, "s").blockingGet();
    return new Store(first, second, app);
  }

  private DatabaseSessionService open(DatabaseSessionService s) {
    perTest.add(s);
    return s;
  }

  // ---- tools ----

  /** Opens a ticket a person approves later; counts its calls. */
  public static final class Tickets {
    final AtomicInteger calls = new AtomicInteger();

    public Map<String, Object> askForApproval(String purpose, int amount, ToolContext ctx) {
      calls.incrementAndGet();
      ctx.state().put("user:open_ticket", "ticket-" + amount);
      ctx.state().put("temp:scratch", "gone after the pause");
      return Map.of("status", "pending", "ticketId", "ticket-" + amount, "purpose", purpose);
    }

    public void startJob(String name, ToolContext ctx) {
      calls.incrementAndGet();
      ctx.state().put("job", name);
    }
  }

  /** Moves money; asks a person first (as a FunctionTool with requireConfirmation). */
  public static final class Bank {
    final AtomicInteger runs = new AtomicInteger();

    public Map<String, Object> transfer(int amount, ToolContext ctx) {
      runs.incrementAndGet();
      ctx.state().increment("user:transfers", 1);
      ctx.state().put("last_transfer", amount);
      return Map.of("transferred", amount);
    }
  }

  /** Asks for confirmation itself, with a payload the person may change. */
  public static final class Orders {
    final List<Object> payloads = new ArrayList<>();

    public Map<String, Object> order(String item, ToolContext ctx) {
      if (ctx.toolConfirmation().isEmpty()) {
        ctx.requestConfirmation("How many " + item + "?", Map.of("quantity", 1));
        return Map.of("status", "waiting for the quantity");
      }
      ToolConfirmation answer = ctx.toolConfirmation().get();
      payloads.add(answer.payload());
      if (!answer.confirmed()) {
        return Map.of("status", "cancelled");
      }
      Object quantity = ((Map<?, ?>) answer.payload()).get("quantity");
      ctx.state().put("ordered", item + " x" + quantity);
      return Map.of("status", "ordered", "quantity", quantity);
    }
  }

  // ---- helpers ----

  static Runner runner(BaseSessionService sessions, String app, dev.adk4j.agents.BaseAgent agent) {
    return new Runner(agent, app, null, sessions);
  }

  static List<Event> run(Runner runner, Content message) {
    return runner.runAsync("u", "s", message).toList().blockingGet();
  }

  static Content answer(String id, String name, Map<String, Object> response) {
    return Content.builder()
        .role("user")
        .parts(
            Part.builder()
                .functionResponse(
                    FunctionResponse.builder().id(id).name(name).response(response).build())
                .build())
        .build();
  }

  static FunctionCall onlyCall(Event e) {
    assertThat(e.functionCalls()).hasSize(1);
    return e.functionCalls().get(0);
  }

  static List<Part> partsOf(LlmRequest request) {
    List<Part> parts = new ArrayList<>();
    for (Content c : request.contents()) {
      parts.addAll(c.parts().orElse(List.of()));
    }
    return parts;
  }

  /** A teller whose transfer tool asks a person before each call. */
  static LlmAgent teller(ScriptedLlm model, Bank bank) {
    return LlmAgent.builder()
        .name("teller")
        .model(model)
        .tools(FunctionTool.create(bank, "transfer", true))
        .build();
  }

  static LlmAgent approver(ScriptedLlm model, Tickets tickets) {
    return LlmAgent.builder()
        .name("approver")
        .model(model)
        .instruction("Get approval.")
        .outputKey("outcome")
        .tools(LongRunningFunctionTool.create(tickets, "askForApproval"))
        .build();
  }

  // ---- tests ----

  @ParameterizedTest
  @EnumSource(Backend.class)
  void aLongRunningCallPausesAndTheClientsResultResumesItOnAnotherInstance(Backend backend)
      throws Exception {
    Store store = store(backend);
    Tickets tickets = new Tickets();
    ScriptedLlm firstModel =
        ScriptedLlm.builder()
            .thenFunctionCall("askForApproval", Map.of("purpose", "travel", "amount", 300))
            .build();
    List<Event> paused =
        run(
            runner(store.first(), store.app(), approver(firstModel, tickets)),
            Contents.user("Reimburse my trip, 300 EUR"));

    // The model's call, marked long-running, then the tool's status; the model is not called
    // again.
    assertThat(paused).hasSize(2);
    Event call = paused.get(0);
    String callId = onlyCall(call).id().orElseThrow();
    assertThat(call.longRunningToolIds()).contains(java.util.Set.of(callId));
    assertThat(call.hasPendingLongRunningToolCall()).isTrue();
    assertThat(call.finalResponse()).isTrue();
    assertThat(paused.get(1).functionResponses().get(0).response().orElseThrow())
        .containsEntry("status", "pending");
    assertThat(firstModel.callCount()).isEqualTo(1);
    assertThat(tickets.calls).hasValue(1);

    Session afterPause = store.stored();
    assertThat(afterPause.state()).containsEntry("user:open_ticket", "ticket-300");
    assertThat(afterPause.state()).doesNotContainKey("outcome");
    Event storedCall = afterPause.events().get(1);
    assertThat(storedCall.longRunningToolIds()).contains(java.util.Set.of(callId));

    // Another instance: its own service object, runner, agent, tools and model.
    Tickets otherTickets = new Tickets();
    ScriptedLlm secondModel = ScriptedLlm.builder().thenText("Your trip is reimbursed.").build();
    List<Event> resumed =
        run(
            runner(store.second(), store.app(), approver(secondModel, otherTickets)),
            answer(callId, "askForApproval", Map.of("status", "approved", "by", "manager")));

    assertThat(resumed).hasSize(1);
    assertThat(resumed.get(0).stringifyContent()).isEqualTo("Your trip is reimbursed.");
    assertThat(otherTickets.calls).hasValue(0);
    assertThat(tickets.calls).hasValue(1);
    // The model sees its call and the latest answer to it, the client's, not the status.
    LlmRequest request = secondModel.lastRequest();
    List<FunctionResponse> seen = ScriptedLlm.functionResponses(request);
    assertThat(seen).hasSize(1);
    assertThat(seen.get(0).id()).contains(callId);
    assertThat(seen.get(0).response().orElseThrow()).containsEntry("status", "approved");
    assertThat(partsOf(request).stream().filter(p -> p.functionCall().isPresent())).hasSize(1);

    Session done = store.stored();
    assertThat(done.state())
        .containsEntry("outcome", "Your trip is reimbursed.")
        .containsEntry("user:open_ticket", "ticket-300")
        .doesNotContainKey("temp:scratch");
    // One invocation: the resumed events carry the paused invocation's id.
    List<Event> events = done.events();
    assertThat(events).hasSize(5);
    assertThat(events).extracting(Event::invocationId).containsOnly(call.invocationId());
    assertThat(events.get(3).author()).isEqualTo("user");
    assertThat(events.get(3).functionResponses()).hasSize(1);
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void aCallThatAnswersNothingYetStoresNoResponseAndTheClientsResultIsTheOnlyOne(Backend backend)
      throws Exception {
    Store store = store(backend);
    Tickets tickets = new Tickets();
    LlmAgent agent =
        LlmAgent.builder()
            .name("jobs")
            .model(
                ScriptedLlm.builder().thenFunctionCall("startJob", Map.of("name", "etl")).build())
            .tools(LongRunningFunctionTool.create(tickets, "startJob"))
            .build();
    List<Event> paused = run(runner(store.first(), store.app(), agent), Contents.user("run etl"));

    // A job that returned nothing: its state write is stored, with no response yet.
    assertThat(paused).hasSize(2);
    String callId = onlyCall(paused.get(0)).id().orElseThrow();
    assertThat(paused.get(1).content()).isEmpty();
    assertThat(paused.get(1).actions().stateDelta()).containsEntry("job", "etl");
    assertThat(store.stored().state()).containsEntry("job", "etl");

    ScriptedLlm model = ScriptedLlm.builder().thenText("etl finished").build();
    LlmAgent again =
        LlmAgent.builder()
            .name("jobs")
            .model(model)
            .tools(LongRunningFunctionTool.create(new Tickets(), "startJob"))
            .build();
    run(
        runner(store.second(), store.app(), again),
        answer(callId, "startJob", Map.of("result", "3 rows")));
    assertThat(ScriptedLlm.functionResponses(model.lastRequest()))
        .singleElement()
        .satisfies(r -> assertThat(r.response().orElseThrow()).containsEntry("result", "3 rows"));
    assertThat(tickets.calls).hasValue(1);
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void aConfirmedCallRunsOnceOnTheResumingInstanceAndTheModelNeverSeesTheRequest(Backend backend)
      throws Exception {
    Store store = store(backend);
    Bank bank = new Bank();
    ScriptedLlm firstModel =
        ScriptedLlm.builder().thenFunctionCall("transfer", Map.of("amount", 50)).build();
    LlmAgent teller = teller(firstModel, bank);
    List<Event> paused = run(runner(store.first(), store.app(), teller), Contents.user("pay 50"));

    // The call, the tool's answer asking for a confirmation, then the agent's request.
    assertThat(paused).hasSize(3);
    String callId = onlyCall(paused.get(0)).id().orElseThrow();
    assertThat(paused.get(0).longRunningToolIds()).isEmpty();
    Event asked = paused.get(1);
    assertThat(asked.actions().requestedToolConfirmations()).containsOnlyKeys(callId);
    assertThat(asked.functionResponses().get(0).response().orElseThrow()).containsKey("error");
    Event request = paused.get(2);
    FunctionCall requestCall = onlyCall(request);
    assertThat(requestCall.name()).contains(ToolConfirmation.REQUEST_FUNCTION_NAME);
    assertThat(request.author()).isEqualTo("teller");
    assertThat(request.longRunningToolIds()).contains(java.util.Set.of(requestCall.id().get()));
    Map<?, ?> original = (Map<?, ?>) requestCall.args().orElseThrow().get("originalFunctionCall");
    assertThat(original.get("id")).isEqualTo(callId);
    assertThat(original.get("name")).isEqualTo("transfer");
    assertThat(bank.runs).hasValue(0);
    assertThat(firstModel.callCount()).isEqualTo(1);
    assertThat(store.stored().state()).doesNotContainKeys("last_transfer", "user:transfers");

    Bank otherBank = new Bank();
    ScriptedLlm secondModel = ScriptedLlm.builder().thenText("Sent 50.").build();
    LlmAgent otherTeller = teller(secondModel, otherBank);
    Runner second = runner(store.second(), store.app(), otherTeller);
    List<Event> resumed =
        run(
            second,
            answer(
                requestCall.id().get(),
                ToolConfirmation.REQUEST_FUNCTION_NAME,
                Map.of("confirmed", true)));

    assertThat(otherBank.runs).hasValue(1);
    assertThat(resumed).hasSize(2);
    assertThat(resumed.get(0).functionResponses())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.id()).contains(callId);
              assertThat(r.response().orElseThrow()).containsEntry("transferred", 50);
            });
    assertThat(resumed.get(1).stringifyContent()).isEqualTo("Sent 50.");
    // The model sees the call and the transfer's result only: no request, no "waiting" answer.
    List<Part> parts = partsOf(secondModel.lastRequest());
    assertThat(parts)
        .noneMatch(p -> p.functionCall().flatMap(FunctionCall::name).orElse("").startsWith("adk_"));
    assertThat(ScriptedLlm.functionResponses(secondModel.lastRequest()))
        .singleElement()
        .satisfies(r -> assertThat(r.response().orElseThrow()).containsEntry("transferred", 50));
    Session done = store.stored();
    assertThat(done.state()).containsEntry("last_transfer", 50).containsEntry("user:transfers", 1);

    // Answering the same request again is refused, and stores nothing.
    int before = store.eventCount();
    assertThatThrownBy(
            () ->
                run(
                    second,
                    answer(
                        requestCall.id().get(),
                        ToolConfirmation.REQUEST_FUNCTION_NAME,
                        Map.of("confirmed", true))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(requestCall.id().get())
        .hasMessageContaining("already answered")
        .hasMessageContaining("session 's' of user 'u' in app '" + store.app() + "'");
    assertThat(store.eventCount()).isEqualTo(before);
    assertThat(otherBank.runs).hasValue(1);
    assertThat(store.stored().state()).containsEntry("user:transfers", 1);
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void aRejectedCallDoesNotRun(Backend backend) throws Exception {
    Store store = store(backend);
    Bank bank = new Bank();
    LlmAgent teller =
        teller(
            ScriptedLlm.builder()
                .thenFunctionCall("transfer", Map.of("amount", 70))
                .thenText("Cancelled.")
                .build(),
            bank);
    Runner runner = runner(store.first(), store.app(), teller);
    List<Event> paused = run(runner, Contents.user("pay 70"));
    String requestId = onlyCall(paused.get(2)).id().orElseThrow();
    List<Event> resumed =
        run(
            runner,
            answer(
                requestId,
                ToolConfirmation.REQUEST_FUNCTION_NAME,
                Map.of("response", "{\"confirmed\": false}")));
    assertThat(bank.runs).hasValue(0);
    assertThat(resumed.get(0).functionResponses().get(0).response().orElseThrow().get("error"))
        .asString()
        .contains("rejected");
    assertThat(resumed.get(1).stringifyContent()).isEqualTo("Cancelled.");
    assertThat(store.stored().state()).doesNotContainKeys("last_transfer", "user:transfers");
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void aToolAsksItselfWithAPayloadThePersonChanges(Backend backend) throws Exception {
    Store store = store(backend);
    Orders orders = new Orders();
    LlmAgent shop =
        LlmAgent.builder()
            .name("shop")
            .model(
                ScriptedLlm.builder()
                    .thenFunctionCall("order", Map.of("item", "chairs"))
                    .thenText("Ordered.")
                    .build())
            .tools(FunctionTool.create(orders, "order"))
            .build();
    Runner runner = runner(store.first(), store.app(), shop);
    List<Event> paused = run(runner, Contents.user("order chairs"));
    FunctionCall request = onlyCall(paused.get(2));
    Map<?, ?> asking = (Map<?, ?>) request.args().orElseThrow().get("toolConfirmation");
    assertThat(asking.get("hint")).isEqualTo("How many chairs?");
    assertThat(asking.get("payload")).isEqualTo(Map.of("quantity", 1));

    Orders otherOrders = new Orders();
    LlmAgent otherShop =
        LlmAgent.builder()
            .name("shop")
            .model(ScriptedLlm.builder().thenText("Ordered.").build())
            .tools(FunctionTool.create(otherOrders, "order"))
            .build();
    run(
        runner(store.second(), store.app(), otherShop),
        answer(
            request.id().orElseThrow(),
            ToolConfirmation.REQUEST_FUNCTION_NAME,
            Map.of("confirmed", true, "payload", Map.of("quantity", 4))));
    assertThat(otherOrders.payloads).containsExactly(Map.of("quantity", 4));
    assertThat(store.stored().state()).containsEntry("ordered", "chairs x4");
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void aPausedStepOfASequenceResumesWhereItStopped(Backend backend) throws Exception {
    Store store = store(backend);
    ScriptedLlm draft = ScriptedLlm.builder().thenText("draft v1").build();
    ScriptedLlm approve =
        ScriptedLlm.builder()
            .thenFunctionCall("askForApproval", Map.of("purpose", "publish", "amount", 1))
            .build();
    ScriptedLlm publish = ScriptedLlm.builder().build();
    Tickets tickets = new Tickets();
    List<Event> paused =
        run(
            runner(store.first(), store.app(), pipeline(draft, approve, publish, tickets)),
            Contents.user("write it"));
    assertThat(draft.callCount()).isEqualTo(1);
    assertThat(approve.callCount()).isEqualTo(1);
    assertThat(publish.callCount()).isZero();
    String callId = onlyCall(paused.get(1)).id().orElseThrow();

    ScriptedLlm draft2 = ScriptedLlm.builder().build();
    ScriptedLlm approve2 = ScriptedLlm.builder().thenText("approved").build();
    ScriptedLlm publish2 = ScriptedLlm.builder().thenText("published {draft}").build();
    run(
        runner(store.second(), store.app(), pipeline(draft2, approve2, publish2, new Tickets())),
        answer(callId, "askForApproval", Map.of("status", "approved")));
    assertThat(draft2.callCount()).isZero();
    assertThat(approve2.callCount()).isEqualTo(1);
    assertThat(publish2.callCount()).isEqualTo(1);
    assertThat(ScriptedLlm.instruction(publish2.lastRequest())).contains("draft v1");
    assertThat(store.stored().state())
        .containsEntry("draft", "draft v1")
        .containsEntry("outcome", "approved");
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void aLoopStopsWhenASubAgentPauses(Backend backend) throws Exception {
    Store store = store(backend);
    Tickets tickets = new Tickets();
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFunctionCall("askForApproval", Map.of("purpose", "loop", "amount", 2))
            .build();
    LoopAgent loop =
        LoopAgent.builder()
            .name("loop")
            .maxIterations(3)
            .subAgents(approver(model, tickets))
            .build();
    List<Event> paused = run(runner(store.first(), store.app(), loop), Contents.user("go"));
    assertThat(paused).hasSize(2);
    assertThat(paused.get(0).hasPendingLongRunningToolCall()).isTrue();
    assertThat(model.callCount()).isEqualTo(1);
    assertThat(tickets.calls).hasValue(1);
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void anOrdinaryTurnInBetweenLeavesThePendingCallOpen(Backend backend) throws Exception {
    Store store = store(backend);
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFunctionCall("startJob", Map.of("name", "etl"))
            .thenText("Still running.")
            .thenText("etl finished")
            .build();
    LlmAgent agent =
        LlmAgent.builder()
            .name("jobs")
            .model(model)
            .tools(LongRunningFunctionTool.create(new Tickets(), "startJob"))
            .build();
    Runner runner = runner(store.first(), store.app(), agent);
    List<Event> paused = run(runner, Contents.user("run etl"));
    String callId = onlyCall(paused.get(0)).id().orElseThrow();

    List<Event> between = run(runner, Contents.user("status?"));
    assertThat(between).extracting(Event::stringifyContent).containsExactly("Still running.");
    // The next turn closes a crashed turn's open calls, but not a call the invocation paused on.
    assertThat(store.stored().events())
        .noneMatch(e -> e.errorCode().isPresent())
        .noneMatch(
            e ->
                e.functionResponses().stream()
                    .anyMatch(r -> r.id().equals(java.util.Optional.of(callId))));

    List<Event> resumed = run(runner, answer(callId, "startJob", Map.of("result", "3 rows")));
    assertThat(resumed.get(resumed.size() - 1).stringifyContent()).isEqualTo("etl finished");
    assertThat(resumed).extracting(Event::invocationId).containsOnly(paused.get(0).invocationId());
    assertThat(ScriptedLlm.functionResponses(model.lastRequest()))
        .singleElement()
        .satisfies(r -> assertThat(r.response().orElseThrow()).containsEntry("result", "3 rows"));
  }

  static SequentialAgent pipeline(
      ScriptedLlm draft, ScriptedLlm approve, ScriptedLlm publish, Tickets tickets) {
    return SequentialAgent.builder()
        .name("pipeline")
        .subAgents(
            LlmAgent.builder().name("writer").model(draft).outputKey("draft").build(),
            approver(approve, tickets),
            LlmAgent.builder()
                .name("publisher")
                .model(publish)
                .instruction("Publish {draft}.")
                .build())
        .build();
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void answersThatResumeNothingAreRefusedAndStoreNothing(Backend backend) throws Exception {
    Store store = store(backend);
    Bank bank = new Bank();
    LlmAgent teller =
        teller(
            ScriptedLlm.builder()
                .thenFunctionCall("transfer", Map.of("amount", 5))
                .thenText("ok")
                .build(),
            bank);
    Runner runner = runner(store.first(), store.app(), teller);
    List<Event> paused = run(runner, Contents.user("pay 5"));
    String callId = onlyCall(paused.get(0)).id().orElseThrow();
    String requestId = onlyCall(paused.get(2)).id().orElseThrow();
    int before = store.eventCount();
    String where = "session 's' of user 'u' in app '" + store.app() + "'";

    assertThatThrownBy(() -> run(runner, answer("nope", "transfer", Map.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'nope'")
        .hasMessageContaining("no function call of " + where);
    assertThatThrownBy(() -> run(runner, answer(callId, "transfer", Map.of("transferred", 5))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not long-running");
    assertThatThrownBy(
            () ->
                run(
                    runner,
                    answer(requestId, ToolConfirmation.REQUEST_FUNCTION_NAME, Map.of("ok", 1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("{\"confirmed\": true|false");
    assertThatThrownBy(() -> run(runner, answer(requestId, "transfer", Map.of("confirmed", true))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("which is a call to '" + ToolConfirmation.REQUEST_FUNCTION_NAME);
    Content noId =
        Content.builder()
            .role("user")
            .parts(
                Part.builder()
                    .functionResponse(
                        FunctionResponse.builder()
                            .name(ToolConfirmation.REQUEST_FUNCTION_NAME)
                            .response(Map.of("confirmed", true))
                            .build())
                    .build())
            .build();
    assertThatThrownBy(() -> run(runner, noId))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has no id");
    assertThat(store.eventCount()).isEqualTo(before);
    assertThat(bank.runs).hasValue(0);

    // The request still stands: a valid answer resumes it.
    run(
        runner,
        answer(requestId, ToolConfirmation.REQUEST_FUNCTION_NAME, Map.of("confirmed", true)));
    assertThat(bank.runs).hasValue(1);
  }

  @ParameterizedTest
  @EnumSource(
      value = Backend.class,
      names = {"SQLITE", "POSTGRES"})
  void twoInstancesAnsweringOneRequestAtOnceRunTheToolOnce(Backend backend) throws Exception {
    Store store = store(backend);
    LlmAgent teller =
        LlmAgent.builder()
            .name("teller")
            .model(ScriptedLlm.builder().thenFunctionCall("transfer", Map.of("amount", 9)).build())
            .tools(FunctionTool.create(new Bank(), "transfer", true))
            .build();
    List<Event> paused = run(runner(store.first(), store.app(), teller), Contents.user("pay 9"));
    String requestId = onlyCall(paused.get(2)).id().orElseThrow();

    Bank[] banks = {new Bank(), new Bank()};
    BaseSessionService[] services = {store.first(), store.second()};
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<List<Event>>> results = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        Runner r =
            runner(
                services[i],
                store.app(),
                teller(ScriptedLlm.builder().thenText("sent").build(), banks[i]));
        Callable<List<Event>> resume =
            () -> {
              go.await();
              return run(
                  r,
                  answer(
                      requestId,
                      ToolConfirmation.REQUEST_FUNCTION_NAME,
                      Map.of("confirmed", true)));
            };
        results.add(pool.submit(resume));
      }
      go.countDown();
      int succeeded = 0;
      int refused = 0;
      for (Future<List<Event>> f : results) {
        try {
          f.get(60, TimeUnit.SECONDS);
          succeeded++;
        } catch (java.util.concurrent.ExecutionException e) {
          assertThat(e.getCause()).hasMessageContaining("already answered");
          refused++;
        }
      }
      assertThat(succeeded).isEqualTo(1);
      assertThat(refused).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
    assertThat(banks[0].runs.get() + banks[1].runs.get()).isEqualTo(1);
    assertThat(store.stored().state()).containsEntry("user:transfers", 1);
  }
}
