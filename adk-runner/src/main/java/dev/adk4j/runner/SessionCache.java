package dev.adk4j.runner;

import dev.adk4j.events.Event;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.GetSessionConfig;
import dev.adk4j.sessions.Session;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The events of the sessions this runner served recently, so that a turn reads only what was
 * appended since (by anyone, in any process) instead of the whole history. Each entry is checked
 * against storage at every use: the turn asks for the events after the cached revision, and uses
 * the cache only if the stored revision is exactly the cached one plus what it got back. Bounded:
 * the least recently used session is forgotten first. Thread-safe.
 */
final class SessionCache {

  private record Entry(long revision, List<Event> events) {}

  /** A session's ids (a record: no string built per lookup). */
  private record Key(String app, String user, String id) {}

  private final int maxSessions;
  private final Map<Key, Entry> entries;

  SessionCache(int maxSessions) {
    this.maxSessions = maxSessions;
    this.entries = new LinkedHashMap<>(16, 0.75f, true);
  }

  /**
   * Loads a session for a turn: fresh state and revision from storage, and its events from the
   * cache plus what was appended since, or, when the cache cannot be used, from storage (from the
   * latest compaction on when {@code fromLatestCompaction}). Completes with null if the session
   * does not exist.
   */
  @Nullable Session load(
      BaseSessionService service,
      String app,
      String user,
      String id,
      boolean fromLatestCompaction) {
    Key key = new Key(app, user, id);
    Entry cached = get(key);
    if (cached != null) {
      Session fresh =
          service
              .getSession(
                  app,
                  user,
                  id,
                  Optional.of(GetSessionConfig.builder().afterRevision(cached.revision()).build()))
              .blockingGet();
      if (fresh == null) {
        forget(app, user, id);
        return null;
      }
      if (fresh.revision() == cached.revision() + fresh.events().size()) {
        return Session.builder(id)
            .appName(app)
            .userId(user)
            .state(fresh.state())
            .events(cached.events())
            .addEvents(fresh.events())
            .lastUpdateTime(fresh.lastUpdateTime())
            .revision(fresh.revision())
            .build();
      }
      forget(app, user, id);
    }
    Optional<GetSessionConfig> config =
        fromLatestCompaction
            ? Optional.of(GetSessionConfig.builder().fromLatestCompaction(true).build())
            : Optional.empty();
    return service.getSession(app, user, id, config).blockingGet();
  }

  /**
   * Remembers {@code session}'s events and revision after a turn; with {@code compaction} only the
   * events from its latest compaction event on, and those of the {@code overlapSize} invocations
   * before it that the next summary will see again.
   */
  void remember(Session session, @Nullable EventsCompactionConfig compaction) {
    List<Event> events = session.events();
    int from = 0;
    if (compaction != null) {
      for (int i = events.size() - 1; i >= 0; i--) {
        if (events.get(i).actions().compaction().isPresent()) {
          from =
              compaction.overlapSize() == 0
                  ? i
                  : Compactions.overlapStart(events, i, compaction.overlapSize());
          break;
        }
      }
    }
    // session.events() is immutable and shared: kept as it is unless only its tail is wanted.
    Entry entry =
        new Entry(
            session.revision(),
            from == 0 ? events : List.copyOf(events.subList(from, events.size())));
    synchronized (entries) {
      entries.put(new Key(session.appName(), session.userId(), session.id()), entry);
      if (entries.size() > maxSessions) {
        entries.remove(entries.keySet().iterator().next());
      }
    }
  }

  void forget(String app, String user, String id) {
    synchronized (entries) {
      entries.remove(new Key(app, user, id));
    }
  }

  private @Nullable Entry get(Key key) {
    synchronized (entries) {
      return entries.get(key);
    }
  }
}
