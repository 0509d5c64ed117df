package dev.adk4j.benchmarks;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.internal.jdbc.CountingDataSource;
import dev.adk4j.internal.jdbc.CountingDataSource.Counts;
import dev.adk4j.internal.jdbc.JdbcSessionStore;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.StoreBackedSessionService;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Flowable;
import java.util.List;
import java.util.Map;

/**
 * The database work of a turn through a real {@link Runner}, counted with a {@link
 * CountingDataSource} under the store's own pool: a user message, one function call whose tool
 * writes a {@code user:} key and a session key, its response, the final answer (four events), with
 * the lease taken and released and the session read as the Runner does. Prints the counts of turns
 * 1 to 4 of one conversation on SQLite and PostgreSQL. The model is scripted (a function call, then
 * a text), with no latency. {@code TurnDatabaseWorkTest} in adk-sessions holds the store calls of
 * such a turn to the numbers published in {@code docs/benchmarks.md}; this checks that the Runner
 * makes those calls and no others.
 *
 * <p>Run (from the repository root):
 *
 * <pre>
 * mvn -B -pl adk-benchmarks -am package -DskipTests
 * java -cp adk-benchmarks/target/benchmarks.jar dev.adk4j.benchmarks.TurnDatabaseWork
 * </pre>
 */
public final class TurnDatabaseWork {

  private TurnDatabaseWork() {}

  public static void main(String[] args) throws Exception {
    for (String kind : List.of(BenchDatabase.SQLITE, BenchDatabase.POSTGRESQL)) {
      try (BenchDatabase db = BenchDatabase.start(kind)) {
        measure(kind, db.url);
      }
    }
  }

  static void measure(String kind, String url) {
    CountingDataSource[] counting = new CountingDataSource[1];
    try (JdbcSessionStore store =
        JdbcSessionStore.open(
            url,
            null,
            null,
            DatabaseSessionConfig.defaults(),
            d -> counting[0] = new CountingDataSource(d))) {
      BaseSessionService service = StoreBackedSessionService.builder(store).build();
      LlmAgent agent =
          LlmAgent.builder()
              .name("weather")
              .model(new CallThenAnswer())
              .instruction("Answer about the weather.")
              .tools(FunctionTool.create(TurnDatabaseWork.class, "getWeather"))
              .build();
      service.createSession("app", "alice", null, "s1").blockingGet();
      Runner runner = new Runner(agent, "app", null, service);
      for (int turn = 1; turn <= 4; turn++) {
        Counts before = counting[0].counts();
        boolean detail = turn == 2 && Boolean.getBoolean("detail");
        List<Event> events =
            runner
                .runAsync("alice", "s1", Content.fromParts(Part.fromText("Weather in Paris?")))
                .doOnNext(
                    e -> {
                      if (detail) {
                        System.out.println(
                            "  after event by "
                                + e.author()
                                + ": "
                                + counting[0].counts().minus(before));
                      }
                    })
                .toList()
                .blockingGet();
        Counts work = counting[0].counts().minus(before);
        System.out.println(kind + " turn " + turn + " (" + events.size() + " events): " + work);
      }
      Session s = service.getSession("app", "alice", "s1").blockingGet();
      System.out.println(
          kind + " stored " + s.events().size() + " events, state " + s.state().toString());
    }
  }

  /** The tool: writes a {@code user:} key and a session key. */
  public static Map<String, Object> getWeather(
      @Schema(name = "city", description = "The city.") String city, ToolContext context) {
    context.state().put("user:last_city", city);
    int visits = context.state().get("visits") instanceof Number n ? n.intValue() + 1 : 1;
    context.state().put("visits", visits);
    return Map.of("sky", "sunny");
  }

  /** Calls the tool when the last content is the user's message, else answers. */
  static final class CallThenAnswer extends BaseLlm {
    CallThenAnswer() {
      super("call-then-answer");
    }

    @Override
    public boolean blocksSubscriber() {
      return false; // answers at once
    }

    @Override
    public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
      List<Content> contents = request.contents();
      Content last = contents.get(contents.size() - 1);
      boolean answered =
          last.parts().orElse(List.of()).stream().anyMatch(p -> p.functionResponse().isPresent());
      Part part =
          answered
              ? Part.fromText("Sunny in Paris.")
              : Part.fromFunctionCall("getWeather", Map.of("city", "Paris"));
      return Flowable.just(
          LlmResponse.builder()
              .content(Content.builder().role("model").parts(part).build())
              .build());
    }
  }
}
