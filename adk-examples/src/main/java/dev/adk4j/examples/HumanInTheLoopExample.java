package dev.adk4j.examples;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.events.ToolConfirmation;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.LongRunningFunctionTool;
import dev.adk4j.tools.ToolContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Tools that wait for a person, resumed by another instance. Two session services open the same
 * SQLite file, as two instances of an application would: the invocation pauses on the first, and
 * the person's answer resumes it on the second.
 *
 * <ol>
 *   <li>A long-running tool opens an approval ticket and answers with its status; the invocation
 *       pauses. The manager's decision, sent later as the call's function response, resumes it.
 *   <li>A tool created with {@code requireConfirmation} asks before it pays; the invocation pauses
 *       on an {@code adk_request_confirmation} call. The approval resumes it, and the tool runs,
 *       once.
 * </ol>
 */
public final class HumanInTheLoopExample {
  private HumanInTheLoopExample() {}

  static final String APP = "expenses_app";
  static final String USER = "user9";

  /** The example's tools. */
  public static final class ExpenseTools {
    // tag::long-running[]
    /** Starts an approval; the manager decides later, outside the invocation. */
    @Schema(name = "ask_for_approval", description = "Asks the manager to approve an expense.")
    public Map<String, Object> askForApproval(
        @Schema(name = "amount") int amount, ToolContext context) {
      String ticket = "ticket-" + amount;
      context.state().put("user:open_ticket", ticket); // stored before the pause
      return Map.of("status", "pending", "ticketId", ticket); // stored as the call's status
    }

    // end::long-running[]

    // tag::confirmation[]
    /** Pays an expense; created with requireConfirmation, so a person approves each call. */
    @Schema(name = "reimburse", description = "Pays an expense back to the employee.")
    public Map<String, Object> reimburse(@Schema(name = "amount") int amount, ToolContext context) {
      context.state().increment("user:reimbursements", 1);
      return Map.of("paid", amount);
    }
    // end::confirmation[]
  }

  static LlmAgent approvals(ExpenseTools tools) {
    return LlmAgent.builder()
        .name("ApprovalAgent")
        .model(
            ExampleModels.model(
                request -> "The manager decided.",
                Map.of("ask_for_approval", Map.of("amount", 900))))
        .instruction("Ask the manager to approve expenses.")
        .outputKey("approval")
        // tag::long-running-tool[]
        .tools(LongRunningFunctionTool.create(tools, "askForApproval"))
        // end::long-running-tool[]
        .build();
  }

  static LlmAgent payments(ExpenseTools tools) {
    return LlmAgent.builder()
        .name("PaymentAgent")
        .model(ExampleModels.model(request -> "Paid.", Map.of("reimburse", Map.of("amount", 120))))
        .instruction("Reimburse expenses.")
        // tag::confirmation-tool[]
        .tools(FunctionTool.create(tools, "reimburse", /* requireConfirmation= */ true))
        // end::confirmation-tool[]
        .build();
  }

  /** Runs the example on {@code dataDir/human-in-the-loop.db}; returns the session after it. */
  public static Session run(Path dataDir, Transcript t) {
    Path file = dataDir.resolve("human-in-the-loop.db");
    ExampleSupport.deleteSqliteFile(
        file); // each run starts afresh: user state would carry over otherwise
    String url = "jdbc:sqlite:" + file;
    try (DatabaseSessionService instanceA = new DatabaseSessionService(url);
        DatabaseSessionService instanceB = new DatabaseSessionService(url)) {
      ExampleSupport.freshSession(instanceA, APP, USER, "expense", null);

      t.step("A long-running tool: the invocation pauses on instance A");
      Runner a = new Runner(approvals(new ExpenseTools()), APP, null, instanceA);
      List<Event> paused = ExampleSupport.run(a, USER, "expense", "Approve my 900 EUR trip.", t);
      FunctionCall pending = paused.get(0).functionCalls().get(0);
      t.say(
          "Pending call "
              + pending.name().orElse("")
              + ", long-running: "
              + paused.get(0).hasPendingLongRunningToolCall());

      t.step("The manager's decision resumes it on instance B (another service object)");
      Runner b = new Runner(approvals(new ExpenseTools()), APP, null, instanceB);
      // tag::resume[]
      Content decision =
          functionResponse(
              pending.id().orElseThrow(),
              pending.name().orElseThrow(),
              Map.of("status", "approved", "by", "manager"));
      List<Event> resumed = b.runAsync(USER, "expense", decision).toList().blockingGet();
      // end::resume[]
      resumed.forEach(t::event);
      t.say(
          "Same invocation: "
              + java.util.Objects.equals(
                  resumed.get(resumed.size() - 1).invocationId(), paused.get(0).invocationId()));

      t.step("A tool that asks first: the invocation pauses on a confirmation request (A)");
      ExampleSupport.freshSession(instanceA, APP, USER, "payment", null);
      Runner payA = new Runner(payments(new ExpenseTools()), APP, null, instanceA);
      List<Event> asked = ExampleSupport.run(payA, USER, "payment", "Pay back my taxi.", t);
      FunctionCall request = asked.get(asked.size() - 1).functionCalls().get(0);
      t.say(
          "Pending: "
              + request.name().orElse("")
              + ", long-running: "
              + asked.get(asked.size() - 1).hasPendingLongRunningToolCall());

      t.step("The approval resumes it on instance B; the tool runs once");
      Runner payB = new Runner(payments(new ExpenseTools()), APP, null, instanceB);
      // tag::confirm[]
      Content approval =
          functionResponse(
              request.id().orElseThrow(),
              ToolConfirmation.REQUEST_FUNCTION_NAME,
              Map.of("confirmed", true));
      // end::confirm[]
      payB.runAsync(USER, "payment", approval).blockingForEach(t::event);
      Session payment = ExampleSupport.load(instanceB, APP, USER, "payment");
      t.state("State after the payment", payment);
      Session expense = ExampleSupport.load(instanceB, APP, USER, "expense");
      t.state("State after the approval", expense);
      return payment;
    }
  }

  /** A user message holding one function response, as a client answers a paused call. */
  static Content functionResponse(String id, String name, Map<String, Object> response) {
    List<Part> parts = new ArrayList<>();
    parts.add(
        Part.builder()
            .functionResponse(
                FunctionResponse.builder().id(id).name(name).response(response).build())
            .build());
    return Content.builder().role("user").parts(parts).build();
  }
}
