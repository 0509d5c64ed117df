package dev.adk4j.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.sessions.Session;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link BaseMemoryService} does, whatever keeps the memories: scope by app and user,
 * word matching, no duplicates, order and limit. Subclasses say how to make a fresh, empty service.
 */
public abstract class MemoryServiceContract {

  /** A fresh, empty service whose searches return up to {@code maxResults} matches. */
  protected abstract BaseMemoryService createService(int maxResults) throws Exception;

  /** Releases what {@link #createService} opened. */
  protected void closeService(BaseMemoryService service) throws Exception {
    if (service instanceof AutoCloseable c) {
      c.close();
    }
  }

  private final List<BaseMemoryService> opened = new ArrayList<>();
  private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);

  protected BaseMemoryService service() throws Exception {
    return service(100);
  }

  protected BaseMemoryService service(int maxResults) throws Exception {
    BaseMemoryService s = createService(maxResults);
    opened.add(s);
    return s;
  }

  @AfterEach
  void closeServices() throws Exception {
    for (BaseMemoryService s : opened) {
      closeService(s);
    }
  }

  protected Event said(String author, String text) {
    return Event.builder()
        .id(Event.generateEventId())
        .author(author)
        .content(Content.builder().role("user").parts(List.of(Part.fromText(text))).build())
        .timestamp(clock.addAndGet(1000))
        .build();
  }

  protected static Session session(String app, String user, String id, List<Event> events) {
    return Session.builder(id).appName(app).userId(user).events(events).build();
  }

  protected static List<String> texts(SearchMemoryResponse r) {
    return r.memories().stream().map(m -> MemoryText.textOf(m.content())).toList();
  }

  private static List<String> search(BaseMemoryService s, String app, String user, String q) {
    return texts(s.searchMemory(app, user, q).blockingGet());
  }

  @Test
  void search_findsEventsWithAWordOfTheQuery_withContentAuthorAndTime() throws Exception {
    BaseMemoryService memory = service();
    Event fact = said("user", "My favorite color is blue.");
    Event other = said("assistant", "Noted, thank you!");
    memory.addSessionToMemory(session("app", "alice", "s1", List.of(fact, other))).blockingAwait();

    SearchMemoryResponse found = memory.searchMemory("app", "alice", "Which COLOR?").blockingGet();

    assertThat(found.memories()).hasSize(1);
    MemoryEntry entry = found.memories().get(0);
    assertThat(entry.content()).isEqualTo(fact.content().orElseThrow());
    assertThat(entry.author()).isEqualTo("user");
    assertThat(entry.timestamp()).isEqualTo(Instant.ofEpochMilli(fact.timestamp()).toString());
    assertThat(search(memory, "app", "alice", "thank")).containsExactly("Noted, thank you!");
    assertThat(search(memory, "app", "alice", "blue thank"))
        .containsExactly("My favorite color is blue.", "Noted, thank you!");
  }

  @Test
  void search_matchesWholeWordsOnly_andNothingForAQueryWithoutWords() throws Exception {
    BaseMemoryService memory = service();
    memory
        .addSessionToMemory(
            session("app", "alice", "s1", List.of(said("user", "I live in Rotterdam, near 3011"))))
        .blockingAwait();

    assertThat(search(memory, "app", "alice", "rotter")).isEmpty();
    assertThat(search(memory, "app", "alice", "dam")).isEmpty();
    assertThat(search(memory, "app", "alice", "Paris")).isEmpty();
    assertThat(search(memory, "app", "alice", "3011")).hasSize(1);
    assertThat(search(memory, "app", "alice", "rotterdam?!")).hasSize(1);
    assertThat(search(memory, "app", "alice", "")).isEmpty();
    assertThat(search(memory, "app", "alice", " ?! -- ")).isEmpty();
    // FTS syntax in a query is read as words, never as operators.
    assertThat(search(memory, "app", "alice", "\"near\" NOT AND OR (* | & !")).hasSize(1);
    assertThat(search(memory, "app", "alice", "live:* & 'x")).hasSize(1);
  }

  @Test
  void search_neverReturnsAnotherUsersMemories() throws Exception {
    BaseMemoryService memory = service();
    memory
        .addSessionToMemory(
            session("app", "alice", "s1", List.of(said("user", "alice secret: the code is 1234"))))
        .blockingAwait();
    memory
        .addSessionToMemory(
            session("app", "bob", "s1", List.of(said("user", "bob secret: the code is 9876"))))
        .blockingAwait();

    assertThat(search(memory, "app", "alice", "secret code"))
        .containsExactly("alice secret: the code is 1234");
    assertThat(search(memory, "app", "bob", "secret code"))
        .containsExactly("bob secret: the code is 9876");
    assertThat(search(memory, "app", "alice", "9876 bob")).isEmpty();
    assertThat(search(memory, "app", "carol", "secret")).isEmpty();
    // A user id that is a prefix of another's is another user.
    assertThat(search(memory, "app", "alic", "secret")).isEmpty();
    assertThat(search(memory, "app", "ALICE", "secret")).isEmpty();
  }

  @Test
  void search_neverReturnsAnotherAppsMemories() throws Exception {
    BaseMemoryService memory = service();
    memory
        .addSessionToMemory(
            session("travel", "alice", "s1", List.of(said("user", "book a flight to Lisbon"))))
        .blockingAwait();
    memory
        .addSessionToMemory(
            session("bank", "alice", "s1", List.of(said("user", "my flight refund is pending"))))
        .blockingAwait();

    assertThat(search(memory, "travel", "alice", "flight"))
        .containsExactly("book a flight to Lisbon");
    assertThat(search(memory, "bank", "alice", "flight"))
        .containsExactly("my flight refund is pending");
    assertThat(search(memory, "shop", "alice", "flight")).isEmpty();
  }

  @Test
  void addingTheSameSessionAgain_addsOnlyItsNewEvents() throws Exception {
    BaseMemoryService memory = service();
    Event first = said("user", "remember the milk");
    memory.addSessionToMemory(session("app", "alice", "s1", List.of(first))).blockingAwait();
    memory.addSessionToMemory(session("app", "alice", "s1", List.of(first))).blockingAwait();
    Event second = said("user", "and the milk powder");
    memory
        .addSessionToMemory(session("app", "alice", "s1", List.of(first, second)))
        .blockingAwait();

    assertThat(search(memory, "app", "alice", "milk"))
        .containsExactly("remember the milk", "and the milk powder");

    // The same event id in another session is another memory.
    memory.addSessionToMemory(session("app", "alice", "s2", List.of(first))).blockingAwait();
    assertThat(search(memory, "app", "alice", "remember")).hasSize(2);
    // Memories stay when a later copy of the session no longer holds them.
    memory.addSessionToMemory(session("app", "alice", "s1", List.of())).blockingAwait();
    assertThat(search(memory, "app", "alice", "powder")).hasSize(1);
  }

  @Test
  void eventsWithoutText_partialEvents_andThoughts_areNotRemembered() throws Exception {
    BaseMemoryService memory = service();
    Event call =
        Event.builder()
            .author("agent")
            .content(
                Content.builder()
                    .role("model")
                    .parts(
                        List.of(
                            Part.builder()
                                .functionCall(
                                    FunctionCall.builder()
                                        .name("lookup")
                                        .args(Map.of("city", "Oslo"))
                                        .build())
                                .build()))
                    .build())
            .timestamp(clock.addAndGet(1000))
            .build();
    Event partial = said("agent", "Oslo partial").toBuilder().partial(true).build();
    Event thought =
        Event.builder()
            .author("agent")
            .content(
                Content.builder()
                    .role("model")
                    .parts(
                        List.of(
                            Part.builder().text("thinking about Oslo").thought(true).build(),
                            Part.fromText("It is sunny.")))
                    .build())
            .timestamp(clock.addAndGet(1000))
            .build();
    Event noContent = Event.builder().author("user").timestamp(clock.addAndGet(1000)).build();
    memory
        .addSessionToMemory(
            session("app", "alice", "s1", List.of(call, partial, thought, noContent)))
        .blockingAwait();

    assertThat(search(memory, "app", "alice", "oslo lookup city thinking")).isEmpty();
    SearchMemoryResponse sunny = memory.searchMemory("app", "alice", "sunny").blockingGet();
    assertThat(texts(sunny)).containsExactly("It is sunny.");
    assertThat(sunny.memories().get(0).content()).isEqualTo(thought.content().orElseThrow());
  }

  @Test
  void search_returnsTheNewestMatchesUpToTheLimit_oldestFirst() throws Exception {
    BaseMemoryService memory = service(3);
    List<Event> s1 = new ArrayList<>();
    List<Event> s2 = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      s1.add(said("user", "coffee number " + (2 * i - 1)));
      s2.add(said("user", "coffee number " + (2 * i)));
    }
    // s2's events are each a second newer than s1's, interleaved in time.
    memory.addSessionToMemory(session("app", "alice", "s2", s2)).blockingAwait();
    memory.addSessionToMemory(session("app", "alice", "s1", s1)).blockingAwait();

    assertThat(search(memory, "app", "alice", "coffee"))
        .containsExactly("coffee number 8", "coffee number 9", "coffee number 10");
    assertThat(search(memory, "app", "alice", "1 2 3"))
        .containsExactly("coffee number 1", "coffee number 2", "coffee number 3");
  }

  @Test
  void eventsOfTheSameMillisecond_comeInTheOrderTheyWereAdded() throws Exception {
    BaseMemoryService memory = service();
    long t = clock.addAndGet(1000);
    List<Event> events = new ArrayList<>();
    for (String w : List.of("zeta tea", "alpha tea", "mid tea")) {
      events.add(said("user", w).toBuilder().timestamp(t).build());
    }
    memory.addSessionToMemory(session("app", "alice", "s1", events)).blockingAwait();
    assertThat(search(memory, "app", "alice", "tea"))
        .containsExactly("zeta tea", "alpha tea", "mid tea");
  }

  @Test
  void badIds_failThroughTheSource_namingWhich() throws Exception {
    BaseMemoryService memory = service();
    assertThatThrownBy(() -> memory.searchMemory(" ", "alice", "x").blockingGet())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("appName");
    assertThatThrownBy(() -> memory.searchMemory("app", "", "x").blockingGet())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("userId");
    assertThatThrownBy(() -> memory.searchMemory("app", "alice", null).blockingGet())
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("query");
    assertThatThrownBy(
            () ->
                memory
                    .addSessionToMemory(session("app", " ", "s1", List.of(said("user", "hi"))))
                    .blockingAwait())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("userId");
    assertThatThrownBy(() -> createService(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
