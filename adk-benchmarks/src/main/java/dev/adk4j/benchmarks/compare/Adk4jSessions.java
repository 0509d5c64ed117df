package dev.adk4j.benchmarks.compare;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.sessions.GetSessionConfig;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** {@link SessionOps} on adk4j's {@link InMemorySessionService}. */
final class Adk4jSessions implements SessionOps {

  static final Content EVENT_CONTENT =
      Content.builder().role("model").parts(Part.fromText(Workload.EVENT_TEXT)).build();

  private final InMemorySessionService service = new InMemorySessionService();

  InMemorySessionService service() {
    return service;
  }

  @Override
  public Object createSession(String sessionId) {
    return service.createSession(Workload.APP, Workload.USER, null, sessionId).blockingGet();
  }

  @Override
  public void deleteSession(String sessionId) {
    service.deleteSession(Workload.APP, Workload.USER, sessionId).blockingAwait();
  }

  /** The standard event; the builder gives it a fresh id and the current time. */
  static Event standardEvent(int n) {
    return Event.builder()
        .invocationId(Workload.INVOCATION)
        .author(Workload.AUTHOR)
        .content(EVENT_CONTENT)
        .actions(EventActions.builder().stateDelta(delta(n)).build())
        .build();
  }

  static Map<String, Object> delta(int n) {
    return Map.of(
        Workload.SESSION_KEY,
        n,
        Workload.USER_KEY,
        Workload.USER_VALUE,
        Workload.APP_KEY,
        Workload.APP_VALUE);
  }

  @Override
  public Object appendNew(Object session, int n) {
    return service.appendEvent((Session) session, standardEvent(n)).blockingGet();
  }

  @Override
  public Object prebuild(int n, String eventId) {
    return standardEvent(n).toBuilder().id(eventId).build();
  }

  @Override
  public Object append(Object session, Object event) {
    return service.appendEvent((Session) session, (Event) event).blockingGet();
  }

  @Override
  public Object getSession(String sessionId) {
    return service.getSession(Workload.APP, Workload.USER, sessionId).blockingGet();
  }

  @Override
  public Object getRecentEvents(String sessionId, int count) {
    return service
        .getSession(
            Workload.APP,
            Workload.USER,
            sessionId,
            Optional.of(GetSessionConfig.builder().numRecentEvents(count).build()))
        .blockingGet();
  }

  @Override
  public int eventCount(Object session) {
    return ((Session) session).events().size();
  }

  @Override
  public @Nullable Object stateValue(Object session, String key) {
    return ((Session) session).state().get(key);
  }

  @Override
  public String lastEventText(Object session) {
    List<Event> events = ((Session) session).events();
    return events.get(events.size() - 1).stringifyContent();
  }
}
