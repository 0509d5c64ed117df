package dev.adk4j.a2a;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.types.FunctionCall;
import dev.adk4j.events.Event;
import io.reactivex.rxjava3.disposables.Disposable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * One A2A task served by {@link A2aServer}: its state, history and artifacts as A2A JSON, the
 * invocation running its current turn, and the event queues of the streams watching it. A task
 * spans turns: one that ends {@code input-required} gets another when its client answers.
 *
 * <p>Every method is synchronized; listeners receive events in the order of the changes.
 */
final class ServedTask {
  final String id;
  final String contextId;
  final String userId;
  private String state = A2aWire.SUBMITTED;
  private @Nullable ObjectNode statusMessage;
  private String timestamp = A2aWire.now();
  private final List<ObjectNode> history = new ArrayList<>();
  private final ArrayNode artifacts = A2aWire.NODES.arrayNode();
  private final List<BlockingQueue<ObjectNode>> listeners = new CopyOnWriteArrayList<>();
  private @Nullable Disposable running;
  private CompletableFuture<Void> turn = CompletableFuture.completedFuture(null);

  // The current turn's findings.
  private @Nullable String lastText;
  private final Map<String, FunctionCall> pendingCalls = new LinkedHashMap<>();
  private final Map<String, Object> pendingStatus = new LinkedHashMap<>();

  ServedTask(String id, String contextId, String userId) {
    this.id = id;
    this.contextId = contextId;
    this.userId = userId;
  }

  synchronized String state() {
    return state;
  }

  /** Starts a turn for {@code userMessage}; the caller then {@link #run}s it. */
  synchronized CompletableFuture<Void> startTurn(ObjectNode userMessage) {
    userMessage.put("taskId", id);
    userMessage.put("contextId", contextId);
    history.add(userMessage);
    lastText = null;
    pendingCalls.clear();
    pendingStatus.clear();
    turn = new CompletableFuture<>();
    setState(A2aWire.WORKING, null, false);
    return turn;
  }

  synchronized void run(Disposable invocation) {
    if (A2aWire.TERMINAL.contains(state)) {
      invocation.dispose(); // canceled before it started
    } else {
      running = invocation;
    }
  }

  /** An event the invocation stored: agent text joins the history; paused calls are noted. */
  synchronized void onEvent(Event e) {
    if (A2aWire.TERMINAL.contains(state)
        || e.partial().orElse(false)
        || "user".equals(e.author())) {
      return;
    }
    String text = e.stringifyContent();
    if (!text.isEmpty()) {
      lastText = text;
      ObjectNode m = A2aWire.message("agent", A2aWire.textParts(text), contextId, id);
      history.add(m);
      emit(statusUpdate(false, m));
    }
    for (String callId : e.longRunningToolIds().orElse(java.util.Set.of())) {
      for (FunctionCall c : e.functionCalls()) {
        if (callId.equals(c.id().orElse(null))) {
          pendingCalls.put(callId, c);
        }
      }
    }
    for (var r : e.functionResponses()) {
      r.id()
          .filter(pendingCalls::containsKey)
          .ifPresent(rid -> pendingStatus.put(rid, r.response().orElse(Map.of())));
    }
  }

  /** The invocation completed: the task completes, or waits for input on a paused call. */
  synchronized void onComplete() {
    running = null;
    if (A2aWire.TERMINAL.contains(state)) {
      turn.complete(null);
      return;
    }
    if (!pendingCalls.isEmpty()) {
      ArrayNode parts = A2aWire.NODES.arrayNode();
      FunctionCall first = pendingCalls.values().iterator().next();
      parts
          .addObject()
          .put("kind", "text")
          .put(
              "text",
              lastText != null
                  ? lastText
                  : "The agent waits for the answer to its call of '"
                      + first.name().orElse("")
                      + "'");
      ObjectNode data = parts.addObject().put("kind", "data").putObject("data");
      ArrayNode calls = data.putArray("pendingCalls");
      for (FunctionCall c : pendingCalls.values()) {
        ObjectNode call = calls.addObject();
        call.put("id", c.id().orElse(""));
        call.put("name", c.name().orElse(""));
        call.set("args", A2aWire.JSON.valueToTree(c.args().orElse(Map.of())));
        Object status = pendingStatus.get(c.id().orElse(""));
        if (status != null) {
          call.set("status", A2aWire.JSON.valueToTree(status));
        }
      }
      ObjectNode question = A2aWire.message("agent", parts, contextId, id);
      history.add(question);
      setState(A2aWire.INPUT_REQUIRED, question, true);
    } else {
      ObjectNode artifact = A2aWire.NODES.objectNode();
      artifact.put("artifactId", A2aWire.newId());
      artifact.put("name", "answer");
      artifact.set("parts", A2aWire.textParts(lastText == null ? "" : lastText));
      artifacts.add(artifact);
      ObjectNode update = base("artifact-update");
      update.set("artifact", artifact);
      update.put("append", false);
      update.put("lastChunk", true);
      emit(update);
      setState(A2aWire.COMPLETED, null, true);
    }
    turn.complete(null);
  }

  /** The invocation failed: the task fails with a message saying why. */
  synchronized void onError(String why) {
    running = null;
    if (!A2aWire.TERMINAL.contains(state)) {
      ObjectNode m = A2aWire.message("agent", A2aWire.textParts(why), contextId, id);
      setState(A2aWire.FAILED, m, true);
    }
    turn.complete(null);
  }

  /**
   * Cancels the task: its invocation is disposed (what it stored stays stored).
   *
   * @return false if the task had already ended
   */
  synchronized boolean cancel() {
    if (A2aWire.TERMINAL.contains(state)) {
      return false;
    }
    Disposable d = running;
    running = null;
    setState(A2aWire.CANCELED, null, true);
    if (d != null) {
      d.dispose();
    }
    turn.complete(null);
    return true;
  }

  /** The call of the turn that paused, if the task waits for input. */
  synchronized Map<String, FunctionCall> pendingCalls() {
    return Map.copyOf(pendingCalls);
  }

  synchronized void pendingFromSession(Map<String, FunctionCall> calls) {
    pendingCalls.putAll(calls);
    state = A2aWire.INPUT_REQUIRED;
  }

  synchronized void addListener(BlockingQueue<ObjectNode> queue) {
    listeners.add(queue);
  }

  void removeListener(BlockingQueue<ObjectNode> queue) {
    listeners.remove(queue);
  }

  /** The task as A2A JSON, with at most {@code historyLength} messages (null: all). */
  synchronized ObjectNode snapshot(@Nullable Integer historyLength) {
    ObjectNode t = A2aWire.NODES.objectNode();
    t.put("kind", "task");
    t.put("id", id);
    t.put("contextId", contextId);
    t.set("status", status());
    if (!artifacts.isEmpty()) {
      t.set("artifacts", artifacts.deepCopy());
    }
    ArrayNode h = t.putArray("history");
    int from = historyLength == null ? 0 : Math.max(0, history.size() - historyLength);
    for (int i = from; i < history.size(); i++) {
      h.add(history.get(i).deepCopy());
    }
    return t;
  }

  private ObjectNode status() {
    ObjectNode s = A2aWire.NODES.objectNode();
    s.put("state", state);
    if (statusMessage != null) {
      s.set("message", statusMessage.deepCopy());
    }
    s.put("timestamp", timestamp);
    return s;
  }

  private void setState(String newState, @Nullable ObjectNode message, boolean last) {
    state = newState;
    statusMessage = message;
    timestamp = A2aWire.now();
    emit(statusUpdate(last, message));
  }

  private ObjectNode statusUpdate(boolean last, @Nullable ObjectNode message) {
    ObjectNode u = base("status-update");
    ObjectNode s = u.putObject("status");
    s.put("state", state);
    if (message != null) {
      s.set("message", message.deepCopy());
    }
    s.put("timestamp", A2aWire.now());
    u.put("final", last);
    return u;
  }

  private ObjectNode base(String kind) {
    ObjectNode u = A2aWire.NODES.objectNode();
    u.put("kind", kind);
    u.put("taskId", id);
    u.put("contextId", contextId);
    return u;
  }

  private void emit(ObjectNode event) {
    for (BlockingQueue<ObjectNode> q : listeners) {
      q.add(event);
    }
  }
}
