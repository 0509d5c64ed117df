package dev.adk4j.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.agents.TestInvocation;
import dev.adk4j.events.ToolConfirmation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A {@link FunctionTool} created with {@code requireConfirmation}, a tool asking through {@link
 * ToolContext#requestConfirmation}, and a {@link LongRunningFunctionTool}, called directly.
 */
class ConfirmationToolsTest {

  private final TestInvocation invocation = TestInvocation.of("bank", Map.of());

  /** A payment tool that records its calls. */
  public static final class Payments {
    final List<Integer> paid = new ArrayList<>();

    public Map<String, Object> pay(int amount) {
      paid.add(amount);
      return Map.of("paid", amount);
    }

    public void start(String job) {
      paid.add(-1);
    }
  }

  @Test
  void aConfirmingToolAsksFirst_runsOnceApproved_andNeverWhenRejected() {
    Payments payments = new Payments();
    FunctionTool tool = FunctionTool.create(payments, "pay", true);

    ToolContext first = new ToolContext(invocation.context(), "call-1");
    Map<String, Object> asked = tool.runAsync(Map.of("amount", 5), first).blockingGet();
    assertThat(asked.get("error")).asString().contains("waits for a person");
    assertThat(payments.paid).isEmpty();
    assertThat(first.actions().requestedToolConfirmations()).containsOnlyKeys("call-1");
    assertThat(first.actions().requestedToolConfirmations().get("call-1").hint()).contains("'pay'");
    assertThat(first.hasActions()).isTrue();

    ToolContext rejected =
        new ToolContext(
            invocation.context(), "call-1", ToolConfirmation.builder().confirmed(false).build());
    assertThat(tool.runAsync(Map.of("amount", 5), rejected).blockingGet().get("error"))
        .asString()
        .contains("rejected");
    assertThat(payments.paid).isEmpty();

    ToolContext approved =
        new ToolContext(
            invocation.context(), "call-1", ToolConfirmation.builder().confirmed(true).build());
    assertThat(tool.runAsync(Map.of("amount", 5), approved).blockingGet()).containsEntry("paid", 5);
    assertThat(payments.paid).containsExactly(5);
    assertThat(approved.actions().requestedToolConfirmations()).isEmpty();
  }

  @Test
  void invalidArgumentsAreRefusedBeforeAnyoneIsAsked() {
    FunctionTool tool = FunctionTool.create(new Payments(), "pay", true);
    ToolContext context = new ToolContext(invocation.context(), "call-2");
    assertThat(tool.runAsync(Map.of("amount", "lots"), context).blockingGet().get("error"))
        .asString()
        .contains("amount");
    assertThat(context.actions().requestedToolConfirmations()).isEmpty();
  }

  @Test
  void aConfirmationNeedsACallIdAndAJsonPayload() {
    ToolContext noId = new ToolContext(invocation.context(), null);
    assertThatThrownBy(() -> noId.requestConfirmation("ok?"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("agent 'bank'");
    ToolContext context = new ToolContext(invocation.context(), "call-3");
    assertThatThrownBy(() -> context.requestConfirmation("ok?", new Object()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("payload");
    assertThat(context.actions().requestedToolConfirmations()).isEmpty();
  }

  @Test
  void aLongRunningToolSaysSoToTheModel_andAnswersNothingForAVoidMethod() {
    Payments payments = new Payments();
    LongRunningFunctionTool pay = LongRunningFunctionTool.create(payments, "pay");
    assertThat(pay.longRunning()).isTrue();
    assertThat(pay.declaration().orElseThrow().description().orElse("")).contains("runs long");
    assertThat(FunctionTool.create(payments, "pay").longRunning()).isFalse();
    assertThat(LongRunningFunctionTool.create(pay)).isSameAs(pay);

    ToolContext context = new ToolContext(invocation.context(), "call-4");
    assertThat(pay.runAsync(Map.of("amount", 7), context).blockingGet()).containsEntry("paid", 7);
    LongRunningFunctionTool start = LongRunningFunctionTool.create(payments, "start");
    assertThat(start.runAsync(Map.of("job", "etl"), context).blockingGet()).isEmpty();

    LongRunningFunctionTool confirming =
        LongRunningFunctionTool.create(FunctionTool.create(payments, "pay", true));
    assertThat(confirming.runAsync(Map.of("amount", 1), context).blockingGet())
        .containsKey("error");
    assertThat(payments.paid).containsExactly(7, -1);
  }
}
