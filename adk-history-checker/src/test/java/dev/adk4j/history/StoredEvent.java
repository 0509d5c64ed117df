package dev.adk4j.history;

import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import dev.adk4j.events.Event;
import dev.adk4j.state.State;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What the checker needs of one stored event: whose invocation it is, who wrote it, what it says (a
 * user message carries the operation's id), its state delta (a removal as a null value), its
 * function calls and responses, and whether it closes its invocation.
 *
 * @param invocationId the event's invocation
 * @param author {@code user}, or the agent's name (each worker's agent is named after its process)
 * @param text the event's text ({@code "op <id> ..."} for a worker's user message)
 * @param delta the stored delta, removals as null
 * @param calls ids of its function calls
 * @param responses ids of the calls it answers
 * @param errorResponse whether some function response carries an {@code error}
 * @param errorCode the invocation's error code, if the event has one
 * @param rewindBefore the invocation a rewind event rewinds before
 */
record StoredEvent(
    String invocationId,
    String author,
    String text,
    Map<String, @Nullable Object> delta,
    List<String> calls,
    List<String> responses,
    boolean errorResponse,
    @Nullable String errorCode,
    @Nullable String rewindBefore) {

  /** A final answer (text, no call) or an error event: the invocation is over. */
  boolean closes() {
    return errorCode != null || (calls.isEmpty() && responses.isEmpty() && !text.isEmpty());
  }

  /** The operation id of a worker's user message ({@code op <id> ...}), or null. */
  @Nullable String opId() {
    if (!"user".equals(author) || !text.startsWith("op ")) {
      return null;
    }
    int end = text.indexOf(' ', 3);
    return end < 0 ? text.substring(3) : text.substring(3, end);
  }

  static StoredEvent of(Event e) {
    Map<String, @Nullable Object> delta = new LinkedHashMap<>();
    e.actions()
        .stateDelta()
        .forEach((k, v) -> delta.put(k, v == null || v == State.REMOVED ? null : v));
    List<String> calls = new ArrayList<>();
    for (FunctionCall fc : e.functionCalls()) {
      calls.add(fc.id().orElse("?"));
    }
    List<String> responses = new ArrayList<>();
    boolean error = false;
    for (FunctionResponse fr : e.functionResponses()) {
      responses.add(fr.id().orElse("?"));
      error |= fr.response().map(r -> r.containsKey("error")).orElse(false);
    }
    return new StoredEvent(
        String.valueOf(e.invocationId()),
        String.valueOf(e.author()),
        e.stringifyContent(),
        Collections.unmodifiableMap(delta),
        calls,
        responses,
        error,
        e.errorCode().orElse(null),
        e.actions().rewindBeforeInvocationId().orElse(null));
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder(author).append('@').append(shortId(invocationId));
    if (!text.isEmpty()) {
      b.append(" '").append(text.length() > 60 ? text.substring(0, 60) + "..." : text).append('\'');
    }
    if (!calls.isEmpty()) {
      b.append(" calls").append(calls);
    }
    if (!responses.isEmpty()) {
      b.append(errorResponse ? " error-responses" : " responses").append(responses);
    }
    if (!delta.isEmpty()) {
      b.append(" delta").append(delta);
    }
    if (errorCode != null) {
      b.append(" errorCode=").append(errorCode);
    }
    if (rewindBefore != null) {
      b.append(" rewindBefore=").append(shortId(rewindBefore));
    }
    return b.toString();
  }

  static String shortId(String id) {
    return id.length() > 12 ? id.substring(0, 12) : id;
  }
}
