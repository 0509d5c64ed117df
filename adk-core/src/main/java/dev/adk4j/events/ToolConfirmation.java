package dev.adk4j.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import dev.adk4j.internal.Json;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A person's decision on a tool call that asked for one ({@code
 * ToolContext.requestConfirmation(...)}, or a {@code FunctionTool} created with {@code
 * requireConfirmation}).
 *
 * <p>A tool asks with a {@link #hint()} (what to show the person) and an optional {@link
 * #payload()} (a JSON value the person may fill in or change); the request is recorded in {@link
 * EventActions#requestedToolConfirmations()} under the call's id, and the agent pauses on an {@code
 * adk_request_confirmation} function call. The answer, a function response to that call with {@code
 * {"confirmed": true|false, "payload": ...}}, is handed to the tool when it runs again, in {@code
 * ToolContext.toolConfirmation()}.
 *
 * <p>Immutable: the payload is a frozen copy of a JSON value (maps, lists, strings, numbers,
 * booleans).
 */
@JsonDeserialize(builder = ToolConfirmation.Builder.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class ToolConfirmation {

  /**
   * The name of the function call by which an agent asks a person to confirm a tool call (ADK's
   * name). Its arguments are {@code originalFunctionCall} ({@code id}, {@code name}, {@code args})
   * and {@code toolConfirmation} ({@code hint}, {@code confirmed}, {@code payload}); its id is in
   * the event's {@link Event#longRunningToolIds()}.
   */
  public static final String REQUEST_FUNCTION_NAME = "adk_request_confirmation";

  private final String hint;
  private final boolean confirmed;
  private final @Nullable Object payload;

  private ToolConfirmation(Builder b) {
    this.hint = b.hint == null ? "" : b.hint;
    this.confirmed = b.confirmed;
    this.payload = Json.freeze(Json.normalize("payload", b.payload));
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder().hint(hint).confirmed(confirmed).payload(payload);
  }

  /** What the tool asks the person; empty if it gave no hint. */
  @JsonProperty("hint")
  public String hint() {
    return hint;
  }

  /** Whether the person approved the call; false in a request. */
  @JsonProperty("confirmed")
  public boolean confirmed() {
    return confirmed;
  }

  /** The JSON value that goes with the request or the answer, if any (immutable). */
  @JsonProperty("payload")
  public @Nullable Object payload() {
    return payload;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ToolConfirmation that
        && confirmed == that.confirmed
        && hint.equals(that.hint)
        && Objects.equals(payload, that.payload);
  }

  @Override
  public int hashCode() {
    return Objects.hash(hint, confirmed, payload);
  }

  @Override
  public String toString() {
    return "ToolConfirmation{hint="
        + hint
        + ", confirmed="
        + confirmed
        + (payload == null ? "" : ", payload=" + payload)
        + "}";
  }

  /** Builds a {@link ToolConfirmation}: no hint, not confirmed, no payload by default. */
  @JsonPOJOBuilder(withPrefix = "")
  public static final class Builder {
    private @Nullable String hint;
    private boolean confirmed;
    private @Nullable Object payload;

    private Builder() {}

    @JsonProperty("hint")
    public Builder hint(@Nullable String hint) {
      this.hint = hint;
      return this;
    }

    @JsonProperty("confirmed")
    public Builder confirmed(boolean confirmed) {
      this.confirmed = confirmed;
      return this;
    }

    /**
     * A JSON value: maps with string keys, lists, strings, numbers, booleans, or an object Jackson
     * writes as one (converted when built).
     */
    @JsonProperty("payload")
    public Builder payload(@Nullable Object payload) {
      this.payload = payload;
      return this;
    }

    /**
     * @throws IllegalArgumentException if the payload cannot be written as JSON
     */
    public ToolConfirmation build() {
      return new ToolConfirmation(this);
    }
  }
}
