package dev.adk4j.tools;

import dev.adk4j.agents.CallbackContext;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.events.EventActions;
import dev.adk4j.memory.SearchMemoryResponse;
import io.reactivex.rxjava3.core.Single;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The context of one tool call: a {@link CallbackContext} whose state writes and actions land on
 * that call's function-response event. A parameter of this type in a {@link FunctionTool} method is
 * injected, whatever its name.
 */
public class ToolContext extends CallbackContext {

  private final @Nullable String functionCallId;

  public ToolContext(InvocationContext invocationContext, @Nullable String functionCallId) {
    super(invocationContext);
    this.functionCallId = functionCallId;
  }

  /** The id of the function call being answered, if the model gave one. */
  public Optional<String> functionCallId() {
    return Optional.ofNullable(functionCallId);
  }

  /**
   * Searches the memory of this invocation's user in its app (see {@link
   * dev.adk4j.memory.BaseMemoryService#searchMemory}).
   *
   * @throws IllegalStateException (through the Single) if the runner has no memory service
   */
  public Single<SearchMemoryResponse> searchMemory(String query) {
    Objects.requireNonNull(query, "query");
    return invocationContext
        .memoryService()
        .map(m -> m.searchMemory(invocationContext.appName(), invocationContext.userId(), query))
        .orElseGet(
            () ->
                Single.error(
                    new IllegalStateException(
                        "Cannot search memory: no memory service is configured for agent '"
                            + agentName()
                            + "' (Runner.builder().memoryService(...))")));
  }

  /** Asks the enclosing loop agent to stop after this step. */
  public void escalate() {
    EventActions current = actions();
    setFlags(
        current.transferToAgent().orElse(null), true, current.skipSummarization().orElse(null));
  }

  /** Transfers control to the agent named {@code agentName} after this call. */
  public void transferToAgent(String agentName) {
    Objects.requireNonNull(agentName, "agentName");
    EventActions current = actions();
    setFlags(agentName, current.escalate().orElse(null), current.skipSummarization().orElse(null));
  }

  /** Makes this tool's result final: the model is not called to summarize it. */
  public void skipSummarization() {
    EventActions current = actions();
    setFlags(current.transferToAgent().orElse(null), current.escalate().orElse(null), true);
  }

  /**
   * Sets the control flags only. (Going through {@link #setActions} with {@link #actions()} would
   * apply this step's increments a second time.)
   */
  private void setFlags(
      @Nullable String transferToAgent,
      @Nullable Boolean escalate,
      @Nullable Boolean skipSummarization) {
    setActions(
        EventActions.builder()
            .transferToAgent(transferToAgent)
            .escalate(escalate)
            .skipSummarization(skipSummarization)
            .build());
  }
}
