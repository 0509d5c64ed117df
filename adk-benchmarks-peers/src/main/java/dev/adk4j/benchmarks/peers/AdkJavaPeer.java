package dev.adk4j.benchmarks.peers;

import com.google.adk.agents.LlmAgent;
import com.google.adk.events.Event;
import com.google.adk.models.BaseLlm;
import com.google.adk.models.BaseLlmConnection;
import com.google.adk.models.LlmRequest;
import com.google.adk.models.LlmResponse;
import com.google.adk.runner.Runner;
import com.google.adk.sessions.InMemorySessionService;
import com.google.adk.sessions.Session;
import com.google.adk.tools.Annotations;
import com.google.adk.tools.FunctionTool;
import com.google.adk.tools.ToolContext;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import io.reactivex.rxjava3.core.Flowable;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Google's ADK for Java 1.8.0: a {@code Runner} (built by its builder, default in-memory artifact
 * service, no plugins) over one {@code LlmAgent} with the counter tool as a {@code FunctionTool};
 * {@code InMemorySessionService} (ADK for Java's database session service is not on this classpath:
 * the jar comes without its dependency tree).
 */
final class AdkJavaPeer implements PeerTurns {

  static final class ScriptedModel extends BaseLlm {
    final AtomicLong calls = new AtomicLong();

    ScriptedModel() {
      super("scripted-peer-model");
    }

    @Override
    public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
      calls.incrementAndGet();
      return Flowable.just(
          LlmResponse.builder()
              .content(
                  Adk4jPeer.endsWithToolResult(request.contents())
                      ? Adk4jPeer.ANSWER
                      : Adk4jPeer.CALL)
              .build());
    }

    @Override
    public BaseLlmConnection connect(LlmRequest request) {
      throw new UnsupportedOperationException("no live connection in the benchmarks");
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

  private final InMemorySessionService service = new InMemorySessionService();
  private final ScriptedModel model = new ScriptedModel();
  private final Runner runner;

  AdkJavaPeer() {
    LlmAgent agent =
        LlmAgent.builder()
            .name(PeerWorkload.AGENT)
            .model(model)
            .instruction(PeerWorkload.INSTRUCTION)
            .tools(FunctionTool.create(new CounterTool(), "increment"))
            .build();
    runner =
        Runner.builder().agent(agent).appName(PeerWorkload.APP).sessionService(service).build();
  }

  @Override
  public void begin(String id) {
    service
        .createSession(PeerWorkload.APP, PeerWorkload.USER, (Map<String, Object>) null, id)
        .blockingGet();
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
                  .id(Event.generateEventId())
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
    runner
        .runAsync(PeerWorkload.USER, id, Adk4jPeer.USER_MESSAGE)
        .blockingSubscribe(last::set, error::set);
    if (error.get() != null) {
      throw new IllegalStateException("adk-java turn failed", error.get());
    }
    // ADK's Runner does the whole turn before its Flowable completes.
    return text(last.get().content().orElseThrow());
  }

  static String text(Content content) {
    StringBuilder out = new StringBuilder();
    for (Part p : content.parts().orElseThrow()) {
      p.text().ifPresent(out::append);
    }
    return out.toString();
  }

  private Session session(String id) {
    return service
        .getSession(PeerWorkload.APP, PeerWorkload.USER, id, Optional.empty())
        .blockingGet();
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
  public void close() {}
}
