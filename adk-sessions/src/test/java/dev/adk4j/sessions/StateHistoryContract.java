package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.internal.Json;
import dev.adk4j.state.Scope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link BaseSessionService#stateHistory} on one backend: every change of a key, oldest first,
 * equal to a replay of the events as they were appended (removals, increments and {@code user:} /
 * {@code app:} keys across sessions included). Subclasses say how to make a fresh, empty service.
 */
public abstract class StateHistoryContract {

  protected abstract BaseSessionService createService() throws Exception;

  protected void closeService(BaseSessionService service) throws Exception {
    if (service instanceof AutoCloseable c) {
      c.close();
    }
  }

  protected BaseSessionService service;

  /** Every event as stored, in the order the appends happened. */
  protected final List<Logged> log = new ArrayList<>();

  private long clock = 1_700_000_000_000L;

  /** An appended event with its session. */
  protected record Logged(String user, String session, Event stored) {}

  @BeforeEach
  void open() throws Exception {
    service = createService();
  }

  @AfterEach
  void close() throws Exception {
    closeService(service);
  }

  protected Session create(String user, String session) {
    return service.createSession("app", user, null, session).blockingGet();
  }

  /** Appends an event with {@code delta} (and increments) through a fresh copy of the session. */
  protected Event append(
      String user,
      String session,
      String author,
      Map<String, ? extends Object> delta,
      Map<String, Long> increments,
      long time) {
    Session s = service.getSession("app", user, session).blockingGet();
    Event e =
        Event.builder()
            .id(Event.generateEventId())
            .invocationId("inv-" + log.size())
            .author(author)
            .actions(EventActions.builder().stateDelta(delta).stateIncrements(increments).build())
            .timestamp(time)
            .build();
    Event stored = service.appendEvent(s, e).blockingGet();
    log.add(new Logged(user, session, stored));
    return stored;
  }

  protected Event append(String user, String session, Map<String, ? extends Object> delta) {
    return append(user, session, "agent", delta, Map.of(), clock += 1000);
  }

  /**
   * What the history of {@code key} seen from (user, session) must be: a replay of {@link #log}.
   */
  protected List<String> replay(String user, String session, String key) {
    List<String> expected = new ArrayList<>();
    Scope scope = Scope.of(key);
    for (Logged l : log) {
      boolean seen =
          switch (scope) {
            case APP -> true;
            case USER -> l.user.equals(user);
            default -> l.user.equals(user) && l.session.equals(session);
          };
      Map<String, Object> delta = l.stored.actions().stateDelta();
      if (seen && delta.containsKey(key)) {
        expected.add(
            line(
                key,
                delta.get(key),
                l.user,
                l.session,
                l.stored.id(),
                l.stored.author(),
                l.stored.invocationId(),
                Instant.ofEpochMilli(l.stored.timestamp())));
      }
    }
    return expected;
  }

  protected List<String> history(String user, String session, String key) {
    return service.stateHistory("app", user, session, key).blockingGet().stream()
        .map(
            c ->
                line(
                    c.key(),
                    c.value(),
                    c.userId(),
                    c.sessionId(),
                    c.eventId(),
                    c.author(),
                    c.invocationId(),
                    c.timestamp()))
        .toList();
  }

  private static String line(
      String key,
      Object value,
      String user,
      String session,
      String event,
      String author,
      String invocation,
      Instant time) {
    return String.join(
        " | ",
        key,
        value == null ? "(removed)" : Json.toJson(canonical(value)),
        user,
        session,
        event,
        String.valueOf(author),
        String.valueOf(invocation),
        time.toString());
  }

  /** {@code value} with its maps' keys sorted (JSONB does not keep their order). */
  private static Object canonical(Object value) {
    if (value instanceof Map<?, ?> m) {
      Map<String, Object> sorted = new java.util.TreeMap<>();
      m.forEach((k, v) -> sorted.put(String.valueOf(k), v == null ? null : canonical(v)));
      return sorted;
    }
    if (value instanceof List<?> l) {
      return l.stream().map(v -> v == null ? "null" : canonical(v)).toList();
    }
    return value;
  }

  private static final List<String> KEYS =
      List.of("k", "m", "user:u", "user:v", "app:a", "temp:t", "user:count");

  /** 80 appends of random changes to three sessions of two users; returns the sessions. */
  protected List<String[]> randomWorkload(long seed) {
    List<String[]> sessions =
        List.of(
            new String[] {"alice", "s1"}, new String[] {"alice", "s2"}, new String[] {"bob", "s3"});
    for (String[] s : sessions) {
      create(s[0], s[1]);
    }
    Random random = new Random(seed);
    for (int i = 0; i < 80; i++) {
      String[] s = sessions.get(random.nextInt(sessions.size()));
      Map<String, Object> delta = new LinkedHashMap<>();
      Map<String, Long> increments = new HashMap<>();
      int n = 1 + random.nextInt(3);
      for (int j = 0; j < n; j++) {
        String key = KEYS.get(random.nextInt(KEYS.size()));
        if (key.equals("user:count")) {
          delta.put(key, 0);
          increments.put(key, 1L + random.nextInt(3));
          continue;
        }
        int pick = random.nextInt(5);
        Object value =
            pick == 0
                ? null
                : pick == 1 ? Map.of("n", i, "list", List.of(i, "x" + j)) : "v" + i + "." + j;
        delta.put(key, value);
      }
      // Some events carry an earlier time than the one before: history follows the appends.
      long time = random.nextInt(10) == 0 ? clock - 5000 : (clock += 1000);
      append(s[0], s[1], random.nextBoolean() ? "user" : "agent", delta, increments, time);
    }
    return sessions;
  }

  @Test
  void history_ofEveryKeyFromEverySession_matchesAReplayOfTheEvents() {
    List<String[]> sessions = randomWorkload(17);
    for (String[] s : sessions) {
      for (String key : KEYS) {
        if (key.startsWith("temp:")) {
          continue;
        }
        assertThat(history(s[0], s[1], key))
            .as("history of %s from %s/%s", key, s[0], s[1])
            .isEqualTo(replay(s[0], s[1], key))
            .isNotEmpty();
      }
    }
    // The last change of each key is its current value (or its absence).
    for (String[] s : sessions) {
      Session now = service.getSession("app", s[0], s[1]).blockingGet();
      for (String key : List.of("k", "m", "user:u", "user:v", "app:a", "user:count")) {
        List<StateChange> h = service.stateHistory("app", s[0], s[1], key).blockingGet();
        StateChange last = h.get(h.size() - 1);
        if (last.removed()) {
          assertThat(now.state()).as(key).doesNotContainKey(key);
        } else {
          assertThat(Json.sameValue(last.value(), now.state().get(key))).as(key).isTrue();
        }
      }
    }
  }

  /** Issue 33: a key written only by increments (as {@code State.increment} does) has a history. */
  @Test
  void keysWrittenOnlyByIncrements_haveEveryIncrementInTheirHistory() {
    create("alice", "s1");
    create("alice", "s2");
    append("alice", "s1", "agent", Map.of(), Map.of("user:n", 1L, "visits", 1L), clock += 1000);
    append("alice", "s2", "agent", Map.of(), Map.of("user:n", 1L), clock += 1000);
    append("alice", "s1", "agent", Map.of(), Map.of("visits", 2L, "app:hits", 3L), clock += 1000);

    assertThat(history("alice", "s1", "user:n"))
        .isEqualTo(replay("alice", "s1", "user:n"))
        .hasSize(2);
    assertThat(values("alice", "s1", "user:n")).containsExactly(1, 2);
    assertThat(values("alice", "s1", "visits")).containsExactly(1, 3);
    assertThat(values("alice", "s2", "visits")).isEmpty();
    assertThat(values("alice", "s2", "app:hits")).containsExactly(3);
  }

  private List<Object> values(String user, String session, String key) {
    return service.stateHistory("app", user, session, key).blockingGet().stream()
        .map(c -> (Object) ((Number) c.value()).intValue())
        .toList();
  }

  @Test
  void removals_andIncrements_areChanges() {
    create("alice", "s1");
    Event set = append("alice", "s1", Map.of("k", "on", "user:n", 5));
    Map<String, Object> removal = new HashMap<>();
    removal.put("k", null);
    Event removed = append("alice", "s1", removal);
    Event incremented =
        append("alice", "s1", "agent", Map.of("user:n", 0), Map.of("user:n", 2L), 1);
    append("alice", "s1", Map.of("other", 1, "temp:k", "never stored"));

    List<StateChange> k = service.stateHistory("app", "alice", "s1", "k").blockingGet();
    assertThat(k).extracting(StateChange::eventId).containsExactly(set.id(), removed.id());
    assertThat(k.get(0).value()).isEqualTo("on");
    assertThat(k.get(0).removed()).isFalse();
    assertThat(k.get(1).removed()).isTrue();
    assertThat(k.get(1).value()).isNull();
    List<StateChange> n = service.stateHistory("app", "alice", "s1", "user:n").blockingGet();
    assertThat(n).extracting(StateChange::eventId).containsExactly(set.id(), incremented.id());
    assertThat(((Number) n.get(1).value()).longValue()).isEqualTo(7L);
    assertThat(service.stateHistory("app", "alice", "s1", "never").blockingGet()).isEmpty();
    assertThat(history("alice", "s1", "k")).isEqualTo(replay("alice", "s1", "k"));
  }

  @Test
  void aDeletedSessionsChanges_leaveTheHistory_withItsEvents() {
    create("alice", "s1");
    create("alice", "s2");
    append("alice", "s1", Map.of("user:u", 1));
    Event gone = append("alice", "s2", Map.of("user:u", 2, "k", "x"));
    append("alice", "s1", Map.of("user:u", 3));
    assertThat(service.stateHistory("app", "alice", "s1", "user:u").blockingGet()).hasSize(3);

    service.deleteSession("app", "alice", "s2").blockingAwait();
    log.removeIf(l -> l.stored().id().equals(gone.id()));

    assertThat(history("alice", "s1", "user:u"))
        .isEqualTo(replay("alice", "s1", "user:u"))
        .hasSize(2);
    assertThatThrownBy(() -> service.stateHistory("app", "alice", "s2", "k").blockingGet())
        .isInstanceOf(SessionNotFoundException.class);
  }

  @Test
  void otherUsersAndApps_seeTheirOwnUserKeys_butShareAppKeys() {
    create("alice", "s1");
    create("bob", "s1");
    service.createSession("other-app", "alice", null, "s1").blockingGet();
    append("alice", "s1", Map.of("user:u", "alice's", "app:a", "from alice", "k", 1));
    append("bob", "s1", Map.of("user:u", "bob's", "app:a", "from bob", "k", 2));

    assertThat(history("alice", "s1", "user:u")).hasSize(1).allMatch(l -> l.contains("alice's"));
    assertThat(history("bob", "s1", "user:u")).hasSize(1).allMatch(l -> l.contains("bob's"));
    assertThat(history("bob", "s1", "k")).hasSize(1).allMatch(l -> l.contains("| 2 |"));
    assertThat(service.stateHistory("app", "bob", "s1", "app:a").blockingGet())
        .extracting(StateChange::userId)
        .containsExactly("alice", "bob");
    assertThat(service.stateHistory("other-app", "alice", "s1", "app:a").blockingGet()).isEmpty();
    assertThat(service.stateHistory("other-app", "alice", "s1", "user:u").blockingGet()).isEmpty();
  }

  @Test
  void badRequests_failNamingWhatIsWrong() {
    create("alice", "s1");
    assertThatThrownBy(() -> service.stateHistory("app", "alice", "s1", "temp:x").blockingGet())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("temp:x")
        .hasMessageContaining("s1");
    assertThatThrownBy(
            () -> service.stateHistory("app", "alice", "s1", "secret:token").blockingGet())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("secret:token")
        .hasMessageContaining("never in stored events");
    assertThatThrownBy(() -> service.stateHistory("app", "alice", "s1", "user:").blockingGet())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("user:");
    assertThatThrownBy(() -> service.stateHistory("app", "alice", "s1", "").blockingGet())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> service.stateHistory("app", "alice", "nope", "k").blockingGet())
        .isInstanceOf(SessionNotFoundException.class)
        .hasMessageContaining("nope");
    assertThatThrownBy(() -> service.stateHistory("app", " ", "s1", "k").blockingGet())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("userId");
  }
}
