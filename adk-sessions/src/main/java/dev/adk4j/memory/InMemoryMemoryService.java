package dev.adk4j.memory;

import com.google.genai.types.Content;
import dev.adk4j.events.Event;
import dev.adk4j.sessions.Session;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Single;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link BaseMemoryService} in this process: keyword matching, as ADK's in-memory memory service
 * does, lost when the process ends. {@link DatabaseMemoryService} keeps memories in the database of
 * the sessions.
 *
 * <p>Each user's memories are kept with an index from word to the memories that contain it, so a
 * search costs what its words match rather than everything the user remembers. A search returns the
 * {@code maxResults} most recent matches ({@value MemoryText#DEFAULT_MAX_RESULTS} by default),
 * oldest first. Thread-safe: each user's memory is guarded by its own lock.
 */
public final class InMemoryMemoryService implements BaseMemoryService {

  private final Map<Owner, UserMemory> users = new ConcurrentHashMap<>();
  private final int maxResults;

  /** A memory whose searches return up to {@value MemoryText#DEFAULT_MAX_RESULTS} matches. */
  public InMemoryMemoryService() {
    this(MemoryText.DEFAULT_MAX_RESULTS);
  }

  /**
   * A memory whose searches return up to {@code maxResults} matches, the most recent ones.
   *
   * @throws IllegalArgumentException if {@code maxResults} is below 1
   */
  public InMemoryMemoryService(int maxResults) {
    this.maxResults = MemoryText.checkMaxResults(maxResults);
  }

  @Override
  public Completable addSessionToMemory(Session session) {
    Objects.requireNonNull(session, "session");
    return Completable.fromAction(
        () -> {
          String app = MemoryText.checkId(session.appName(), "appName");
          String user = MemoryText.checkId(session.userId(), "userId");
          users.computeIfAbsent(new Owner(app, user), k -> new UserMemory()).add(session);
        });
  }

  @Override
  public Single<SearchMemoryResponse> searchMemory(String appName, String userId, String query) {
    return Single.fromCallable(
        () -> {
          String app = MemoryText.checkId(appName, "appName");
          String user = MemoryText.checkId(userId, "userId");
          Objects.requireNonNull(query, "query");
          UserMemory memory = users.get(new Owner(app, user));
          List<MemoryEntry> found =
              memory == null ? List.of() : memory.search(MemoryText.words(query), maxResults);
          return SearchMemoryResponse.builder().memories(found).build();
        });
  }

  /** Whose memories: one user of one app. */
  private record Owner(String app, String user) {}

  @Override
  public String toString() {
    return "InMemoryMemoryService{" + users.size() + " users}";
  }

  /** One remembered event; {@code order} is the order it was added in. */
  private record Memory(long order, long time, MemoryEntry entry) {}

  private static final Comparator<Memory> NEWEST_FIRST =
      Comparator.comparingLong(Memory::time).thenComparingLong(Memory::order).reversed();

  /** The memories of one user of one app. */
  private static final class UserMemory {
    private final Set<String> remembered = new HashSet<>(); // session id NUL event id
    private final Map<String, List<Memory>> byWord = new HashMap<>();
    private long added;

    synchronized void add(Session session) {
      for (Event event : session.events()) {
        String text = MemoryText.rememberedText(event);
        if (text == null || !remembered.add(session.id() + '\u0000' + event.id())) {
          continue;
        }
        Content content = event.content().orElseThrow(); // rememberedText saw it
        MemoryEntry entry =
            MemoryEntry.builder()
                .content(content)
                .author(event.author())
                .timestamp(MemoryText.timestamp(event.timestamp()))
                .build();
        Memory memory = new Memory(added++, event.timestamp(), entry);
        for (String word : MemoryText.words(text)) {
          byWord.computeIfAbsent(word, w -> new ArrayList<>()).add(memory);
        }
      }
    }

    synchronized List<MemoryEntry> search(Set<String> words, int limit) {
      TreeSet<Memory> newest = new TreeSet<>(NEWEST_FIRST);
      for (String word : words) {
        for (Memory m : byWord.getOrDefault(word, List.of())) {
          newest.add(m);
          if (newest.size() > limit) {
            newest.pollLast();
          }
        }
      }
      List<MemoryEntry> found = new ArrayList<>(newest.size());
      newest.descendingIterator().forEachRemaining(m -> found.add(m.entry()));
      return found;
    }
  }
}
