package dev.adk4j.tools;

import dev.adk4j.agents.CallbackContext;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.events.EventActions;
import dev.adk4j.events.ToolConfirmation;
import dev.adk4j.memory.SearchMemoryResponse;
import io.reactivex.rxjava3.core.Single;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The context of one tool call: a {@link CallbackContext} whose state writes and actions land on
 * that call's function-response event. A parameter of this type in a {@link FunctionTool} method is
 * injected, whatever its name.
 */
public class ToolContext extends CallbackContext {

  private final @Nullable String functionCallId;
  private volatile @Nullable ToolConfirmation toolConfirmation;
  private final Map<String, ToolConfirmation> requestedConfirmations = new ConcurrentHashMap<>();

  public ToolContext(InvocationContext invocationContext, @Nullable String functionCallId) {
    this(invocationContext, functionCallId, null);
  }

  /**
   * The context of call {@code functionCallId} run again with the person's answer {@code
   * toolConfirmation} to the confirmation it asked for.
   */
  public ToolContext(
      InvocationContext invocationContext,
      @Nullable String functionCallId,
      @Nullable ToolConfirmation toolConfirmation) {
    super(invocationContext);
    this.functionCallId = functionCallId;
    this.toolConfirmation = toolConfirmation;
  }

  /** ADK for Java's builder of a tool context, for tests and custom runners. */
  public static Builder builder(InvocationContext invocationContext) {
    return new Builder(invocationContext);
  }

  /** A builder holding this context's invocation, function call id, confirmation and actions. */
  public Builder toBuilder() {
    return new Builder(invocationContext())
        .functionCallId(functionCallId)
        .toolConfirmation(toolConfirmation)
        .actions(actions());
  }

  /** Builds a {@link ToolContext}, as ADK for Java's {@code ToolContext.builder(..)} does. */
  public static final class Builder {
    private final InvocationContext invocationContext;
    private @Nullable String functionCallId;
    private @Nullable ToolConfirmation toolConfirmation;
    private @Nullable EventActions actions;

    private Builder(InvocationContext invocationContext) {
      this.invocationContext = Objects.requireNonNull(invocationContext, "invocationContext");
    }

    /**
     * The actions the context starts with (see {@link ToolContext#setActions}); none by default.
     */
    public Builder actions(EventActions actions) {
      this.actions = actions;
      return this;
    }

    public Builder functionCallId(@Nullable String functionCallId) {
      this.functionCallId = functionCallId;
      return this;
    }

    /** The person's answer, for a call run again after a confirmation. */
    public Builder toolConfirmation(@Nullable ToolConfirmation toolConfirmation) {
      this.toolConfirmation = toolConfirmation;
      return this;
    }

    /**
     * Accepted for ADK for Java's spelling and not used: adk4j gives the function-response event
     * its id when it is stored.
     */
    public Builder eventId(@Nullable String eventId) {
      return this;
    }

    public ToolContext build() {
      ToolContext context = new ToolContext(invocationContext, functionCallId, toolConfirmation);
      if (actions != null) {
        context.setActions(actions);
      }
      return context;
    }
  }

  /**
   * The person's answer, when this call runs again after it asked for a confirmation ({@link
   * #requestConfirmation}); empty on a first run.
   */
  public Optional<ToolConfirmation> toolConfirmation() {
    return Optional.ofNullable(toolConfirmation);
  }

  /**
   * ADK for Java's setter: the person's answer this call runs with (what {@link
   * #toolConfirmation()} then answers).
   */
  public void toolConfirmation(@Nullable ToolConfirmation toolConfirmation) {
    this.toolConfirmation = toolConfirmation;
  }

  /**
   * Asks a person to approve this call before it acts: the function response this call gives now is
   * stored, then the agent asks with an {@code adk_request_confirmation} call (its arguments:
   * {@code originalFunctionCall} and {@code toolConfirmation}, with {@code hint} and {@code
   * payload}) and the invocation pauses. When the client answers that call with {@code
   * {"confirmed": true|false, "payload": ...}}, the invocation resumes (on any instance sharing the
   * session store) and runs this tool again with the same arguments and the answer in {@link
   * #toolConfirmation()}.
   *
   * @param hint what to show the person (null: none)
   * @param payload a JSON value the person may fill in (null: none)
   * @throws IllegalStateException if the model gave this call no id (adk4j gives every call one)
   * @throws IllegalArgumentException if {@code payload} cannot be written as JSON
   */
  public void requestConfirmation(@Nullable String hint, @Nullable Object payload) {
    if (functionCallId == null) {
      throw new IllegalStateException(
          "Tool call of agent '"
              + agentName()
              + "' has no function call id: a confirmation cannot be asked for");
    }
    requestedConfirmations.put(
        functionCallId, ToolConfirmation.builder().hint(hint).payload(payload).build());
  }

  /** {@link #requestConfirmation(String, Object)} without a payload. */
  public void requestConfirmation(@Nullable String hint) {
    requestConfirmation(hint, null);
  }

  /** {@link #requestConfirmation(String, Object)} without a hint or a payload. */
  public void requestConfirmation() {
    requestConfirmation(null, null);
  }

  /** The actions of this call's answer, with the confirmation it asked for, if any. */
  @Override
  public EventActions actions() {
    EventActions actions = super.actions();
    if (requestedConfirmations.isEmpty()) {
      return actions;
    }
    return actions.toBuilder().requestedToolConfirmations(requestedConfirmations).build();
  }

  /** Also takes the confirmations {@code actions} asks for. */
  @Override
  public void setActions(EventActions actions) {
    super.setActions(actions);
    requestedConfirmations.putAll(actions.requestedToolConfirmations());
  }

  @Override
  public boolean hasActions() {
    return super.hasActions() || !requestedConfirmations.isEmpty();
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
