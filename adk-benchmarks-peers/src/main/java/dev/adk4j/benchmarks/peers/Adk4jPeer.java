package dev.adk4j.benchmarks.peers;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.Annotations;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Flowable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * adk4j: a {@code Runner} over one {@code LlmAgent} with the counter tool as a {@code FunctionTool}
 * writing session state through its {@code ToolContext}; {@code InMemorySessionService}, or {@code
 * DatabaseSessionService} on SQLite or PostgreSQL.
 */
final class Adk4jPeer implements PeerTurns {

  static final Content USER_MESSAGE =
      Content.builder().role("user").parts(Part.fromText(PeerWorkload.USER_MESSAGE)).build();
  static final Content CALL =
      Content.builder()
          .role("model")
          .parts(
              Part.builder()
                  .functionCall(
                      FunctionCall.builder().name(PeerWorkload.TOOL).args(Map.of()).build())
                  .build())
          .build();
  static final Content ANSWER =
      Content.builder().role("model").parts(Part.fromText(PeerWorkload.FINAL_ANSWER)).build();

  /** True when the request's last content carries a function response. */
  static boolean endsWithToolResult(List<Content> contents) {
    if (contents.isEmpty()) {
      return false;
    }
    for (Part p : contents.get(contents.size() - 1).parts().orElse(List.of())) {
      if (p.functionResponse().isPresent()) {
        return true;
      }
    }
    return false;
  }

  static final class ScriptedModel extends BaseLlm {
    final AtomicLong calls = new AtomicLong();

    ScriptedModel() {
      super("scripted-peer-model");
    }

    @Override
    public boolean blocksSubscriber() {
      return false; // answers at once
    }

    @Override
    public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
      calls.incrementAndGet();
      return Flowable.just(
          LlmResponse.builder()
              .content(endsWithToolResult(request.contents()) ? ANSWER : CALL)
              .build());
    }
  }

  /** The tool: reads the session's counter and writes it back plus one. */
  public static final class CounterTool {
    @Annotations.Schema(name = PeerWorkload.TOOL, description = PeerWorkload.TOOL_DESCRIPTION)
    public Map<String, Object> increment(ToolContext toolContext) {
      long next = PeerWorkload.counterValue(toolContext.state().get(PeerWorkload.COUNTER)) + 1;
      toolContext.state().put(PeerWorkload.COUNTER, next);
      return Map.of(PeerWorkload.COUNTER, next);
    }
  }

  private final PeerDatabase database;
  private final BaseSessionService service;
  private final ScriptedModel model = new ScriptedModel();
  private final Runner runner;

  Adk4jPeer(String store) {
    if (PeerWorkload.MEMORY.equals(store)) {
      database = null;
      service = new InMemorySessionService();
    } else {
      database = PeerDatabase.start(store);
      service = new DatabaseSessionService(database.url, DatabaseSessionConfig.defaults());
    }
    LlmAgent agent =
        LlmAgent.builder()
            .name(PeerWorkload.AGENT)
            .model(model)
            .instruction(PeerWorkload.INSTRUCTION)
            .tools(FunctionTool.create(new CounterTool(), "increment"))
            .build();
    runner = new Runner(agent, PeerWorkload.APP, null, service);
  }

  @Override
  public void begin(String id) {
    service.createSession(PeerWorkload.APP, PeerWorkload.USER, null, id).blockingGet();
  }

  @Override
  public void fill(String id, int messages) {
    Session session = session(id);
    for (int i = 1; i <= messages; i++) {
      boolean user = i % 2 == 1;
      service
          .appendEvent(
              session,
              Event.builder()
                  .invocationId("prior-" + (i + 1) / 2)
                  .author(user ? "user" : PeerWorkload.AGENT)
                  .content(
                      Content.builder()
                          .role(user ? "user" : "model")
                          .parts(Part.fromText(PeerWorkload.priorMessage(i)))
                          .build())
                  .build())
          .blockingGet();
    }
  }

  @Override
  public String turn(String id) {
    AtomicReference<Event> last = new AtomicReference<>();
    AtomicReference<Throwable> error = new AtomicReference<>();
    runner.runAsync(PeerWorkload.USER, id, USER_MESSAGE).blockingSubscribe(last::set, error::set);
    if (error.get() != null) {
      throw new IllegalStateException("adk4j turn failed", error.get());
    }
    // The run completes after its last write, with the session's lease released.
    return last.get().stringifyContent();
  }

  private Session session(String id) {
    return service.getSession(PeerWorkload.APP, PeerWorkload.USER, id).blockingGet();
  }

  @Override
  public long counter(String id) {
    return PeerWorkload.counterValue(session(id).state().get(PeerWorkload.COUNTER));
  }

  @Override
  public int messages(String id) {
    return session(id).events().size();
  }

  @Override
  public int messagesPerTurn() {
    return 4;
  }

  @Override
  public void end(String id) {
    service.deleteSession(PeerWorkload.APP, PeerWorkload.USER, id).blockingAwait();
  }

  @Override
  public long modelCalls() {
    return model.calls.get();
  }

  @Override
  public void close() {
    if (service instanceof DatabaseSessionService) {
      ((DatabaseSessionService) service).close();
    }
    if (database != null) {
      database.close();
    }
  }
}
