package dev.adk4j.agents;

import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.Schema;
import dev.adk4j.events.Event;
import dev.adk4j.internal.tools.ToolFailures;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.functions.Consumer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Agent transfer: which agents an {@link LlmAgent} may hand the conversation to, how its model
 * learns of them (an instruction and the {@code transfer_to_agent} tool), and how control passes.
 *
 * <p>The targets are the agent's sub-agents, then its parent if that is an {@link LlmAgent} and
 * transfer to the parent is not disallowed. The model is told of those; a call naming any other
 * agent of the tree is still honoured. A call naming no agent of the tree gets an error response
 * naming the valid targets, and no transfer happens, so the model can pick again. A transfer that a
 * tool asks for itself ({@link ToolContext#transferToAgent}) naming no agent fails the step.
 *
 * <p>When a step's function-response event carries a transfer, the agent's run ends there and the
 * target runs in the same invocation, its events emitted as the agent's own flow's ({@link
 * #handOver}).
 */
final class AgentTransfer {
  private AgentTransfer() {}

  /**
   * The agents {@code agent} may transfer to: its sub-agents, then its parent unless disallowed.
   */
  static List<BaseAgent> targets(LlmAgent agent) {
    List<BaseAgent> targets = new ArrayList<>(agent.subAgents());
    Optional<BaseAgent> parent = agent.parentAgent();
    if (!agent.disallowTransferToParent()
        && parent.isPresent()
        && parent.get() instanceof LlmAgent) {
      targets.add(parent.get());
    }
    return targets;
  }

  /**
   * Runs the agent named {@code agentName} in {@code ctx}'s invocation, handing each of its events
   * to {@code emit}; returns when it is done. Control passes for the rest of the invocation: the
   * transferring agent does not run again.
   *
   * @throws IllegalArgumentException if {@code from} knows no agent of that name
   */
  static void handOver(
      LlmAgent from, String agentName, InvocationContext ctx, Consumer<Event> emit) {
    Flows.forEach(find(from, agentName).runAsync(ctx), emit);
  }

  /**
   * The agent named {@code agentName} that {@code from} can transfer to.
   *
   * @throws IllegalArgumentException if there is none, naming the valid targets
   */
  static BaseAgent find(LlmAgent from, String agentName) {
    BaseAgent target = target(from, agentName);
    if (target == null) {
      throw new IllegalArgumentException(unknownTarget(from, agentName));
    }
    return target;
  }

  /** The agent named {@code agentName}: a transfer target, else any agent of the tree; or null. */
  private static @Nullable BaseAgent target(LlmAgent from, String agentName) {
    for (BaseAgent a : targets(from)) {
      if (a.name().equals(agentName)) {
        return a;
      }
    }
    return from.rootAgent().findAgent(agentName).orElse(null);
  }

  private static String unknownTarget(LlmAgent from, String agentName) {
    List<String> names = new ArrayList<>();
    targets(from).forEach(a -> names.add(a.name()));
    return "Agent '"
        + from.name()
        + "' cannot transfer to unknown agent '"
        + agentName
        + "'; it can transfer to: "
        + String.join(", ", names);
  }

  /** The instruction that tells the model about {@code targets}. */
  static String instruction(List<BaseAgent> targets) {
    StringBuilder sb =
        new StringBuilder(
            "You can hand the conversation to another agent by calling "
                + LlmAgent.TRANSFER_TO_AGENT
                + " with its name when it is better suited to answer. Agents:");
    for (BaseAgent a : targets) {
      sb.append("\n- ").append(a.name());
      if (!a.description().isEmpty()) {
        sb.append(": ").append(a.description());
      }
    }
    return sb.toString();
  }

  /** How the model sees {@code transfer_to_agent}. */
  static FunctionDeclaration declaration() {
    return FunctionDeclaration.builder()
        .name(LlmAgent.TRANSFER_TO_AGENT)
        .description("Transfers the conversation to the named agent.")
        .parameters(
            Schema.builder()
                .type("OBJECT")
                .properties(
                    Map.of(
                        "agent_name",
                        Schema.builder()
                            .type("STRING")
                            .description("The name of the agent to transfer to.")
                            .build()))
                .required(List.of("agent_name"))
                .build())
        .build();
  }

  /** The {@code transfer_to_agent} tool of {@code agent}. */
  static BaseTool tool(LlmAgent agent) {
    return new TransferTool(agent);
  }

  /**
   * The built-in transfer tool of an agent: records the target in the call's actions. An agent name
   * that is not in the agent tree gets an error response naming it (and no transfer), so the model
   * can pick a valid one; the stored history never claims a transfer that did not happen.
   */
  private static final class TransferTool extends BaseTool {
    private final LlmAgent agent;

    private TransferTool(LlmAgent agent) {
      super(LlmAgent.TRANSFER_TO_AGENT, "Transfers the conversation to the named agent.");
      this.agent = agent;
    }

    @Override
    public Optional<FunctionDeclaration> declaration() {
      return Optional.of(AgentTransfer.declaration());
    }

    @Override
    public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext context) {
      Object target = args.get("agent_name");
      if (!(target instanceof String) || ((String) target).isEmpty()) {
        return Single.just(
            ToolFailures.invalidArguments(
                LlmAgent.TRANSFER_TO_AGENT + " needs a string agent_name"));
      }
      if (target(agent, (String) target) == null) {
        return Single.just(ToolFailures.invalidArguments(unknownTarget(agent, (String) target)));
      }
      context.transferToAgent((String) target);
      return Single.just(Map.of("transferred_to", target));
    }
  }
}
