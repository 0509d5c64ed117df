package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Keyset paging shared by the session services: page sizes, the order of session pages, and the
 * page tokens. A token is the URL-safe base64 (no padding) of a short text naming what it continues
 * and the position of the last item handed out:
 *
 * <ul>
 *   <li>sessions: {@code s1|<update epoch seconds>|<update nanos>|<session id>};
 *   <li>events: {@code e1|<n or o>|<seq>}, {@code n} for newest first; the next page holds the
 *       events with a smaller (newest first) or larger (oldest first) sequence number.
 * </ul>
 *
 * <p>Callers treat tokens as opaque; the format may change with its version digit.
 */
final class Paging {

  private static final String SESSIONS = "s1";
  private static final String EVENTS = "e1";

  private Paging() {}

  /** Checks a page size of either request. */
  static int checkPageSize(int pageSize) {
    if (pageSize < 1 || pageSize > ListSessionsRequest.MAX_PAGE_SIZE) {
      throw new IllegalArgumentException(
          "pageSize must be between 1 and "
              + ListSessionsRequest.MAX_PAGE_SIZE
              + ", got "
              + pageSize);
    }
    return pageSize;
  }

  // ---- sessions ----

  /**
   * Session ids in Unicode code point order: the order of their UTF-8 bytes, which is how SQLite
   * ({@code BINARY}) and PostgreSQL ({@code COLLATE "C"}) compare them, whatever the locale.
   */
  static int compareIds(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return i < a.length() ? 1 : j < b.length() ? -1 : 0;
  }

  /** Most recently updated first; ties by id in code point order. */
  static int compare(Instant updatedA, String idA, Instant updatedB, String idB) {
    int byTime = updatedB.compareTo(updatedA);
    return byTime != 0 ? byTime : compareIds(idA, idB);
  }

  static final Comparator<SessionStore.Position> POSITION_ORDER =
      (a, b) -> compare(a.lastUpdateTime(), a.sessionId(), b.lastUpdateTime(), b.sessionId());

  static final Comparator<Session> SESSION_ORDER =
      (a, b) -> compare(a.lastUpdateTime(), a.id(), b.lastUpdateTime(), b.id());

  /** Where {@code s} is relative to {@code p} in page order: negative before, positive after. */
  static int compare(Session s, SessionStore.Position p) {
    return compare(s.lastUpdateTime(), s.id(), p.lastUpdateTime(), p.sessionId());
  }

  /** Where the requested page starts (exclusive), or null for the first page. */
  static SessionStore.@Nullable Position sessionCursor(ListSessionsRequest request) {
    String token = request.pageToken().orElse(null);
    if (token == null) {
      return null;
    }
    String text = decode(token, "listSessions");
    String[] parts = text.split("\\|", 4);
    if (parts.length != 4 || !parts[0].equals(SESSIONS) || parts[3].isEmpty()) {
      throw malformed(token, "listSessions", "not a session page token");
    }
    try {
      long seconds = Long.parseLong(parts[1]);
      int nanos = Integer.parseInt(parts[2]);
      if (nanos < 0 || nanos > 999_999_999) {
        throw malformed(token, "listSessions", "nanoseconds out of range");
      }
      return new SessionStore.Position(Instant.ofEpochSecond(seconds, nanos), parts[3]);
    } catch (NumberFormatException | DateTimeException e) {
      throw malformed(token, "listSessions", "its update time is not a time");
    }
  }

  /** The token of the page after {@code last}. */
  static String sessionToken(Session last) {
    Instant t = last.lastUpdateTime();
    return encode(SESSIONS + "|" + t.getEpochSecond() + "|" + t.getNano() + "|" + last.id());
  }

  /**
   * A response from the sessions that follow the requested position, in page order: up to {@code
   * pageSize + 1} of them, the one past the page only telling that there is a next page.
   */
  static ListSessionsResponse sessionsPage(List<Session> followers, int pageSize) {
    if (followers.size() <= pageSize) {
      return new ListSessionsResponse(followers);
    }
    List<Session> page = followers.subList(0, pageSize);
    return new ListSessionsResponse(page, Optional.of(sessionToken(page.get(pageSize - 1))));
  }

  /** A page cut from all of a user's sessions, in any order (for services without an index). */
  static ListSessionsResponse sessionsPageOf(
      List<Session> all, SessionStore.@Nullable Position after, int pageSize) {
    return sessionsPage(followers(all, after, pageSize + 1), pageSize);
  }

  /**
   * Up to {@code limit} of {@code all} (a user's sessions in any order) that come after {@code
   * after} in page order, in page order.
   */
  static List<Session> followers(
      List<Session> all, SessionStore.@Nullable Position after, int limit) {
    List<Session> sorted = new ArrayList<>(all);
    sorted.sort(SESSION_ORDER);
    List<Session> followers = new ArrayList<>(Math.min(limit, sorted.size()));
    for (Session s : sorted) {
      if (after != null && compare(s, after) <= 0) {
        continue;
      }
      followers.add(s);
      if (followers.size() >= limit) {
        break;
      }
    }
    return followers;
  }

  // ---- events ----

  /**
   * The exclusive sequence bound the requested page starts from: events with a larger sequence
   * number (oldest first) or a smaller one (newest first). No token: 0, or {@link Long#MAX_VALUE}.
   */
  static long eventBound(ListEventsRequest request) {
    String token = request.pageToken().orElse(null);
    if (token == null) {
      return request.newestFirst() ? Long.MAX_VALUE : 0;
    }
    String text = decode(token, "listEvents");
    String[] parts = text.split("\\|", -1);
    if (parts.length != 3
        || !parts[0].equals(EVENTS)
        || !(parts[1].equals("n") || parts[1].equals("o"))) {
      throw malformed(token, "listEvents", "not an event page token");
    }
    long seq;
    try {
      seq = Long.parseLong(parts[2]);
    } catch (NumberFormatException e) {
      throw malformed(token, "listEvents", "its sequence number is not a number");
    }
    if (seq < 0) {
      throw malformed(token, "listEvents", "negative sequence number");
    }
    boolean newest = parts[1].equals("n");
    if (newest != request.newestFirst()) {
      throw new IllegalArgumentException(
          "Page token '"
              + shorten(token)
              + "' continues a listing of events "
              + (newest ? "newest" : "oldest")
              + " first; ask with newestFirst("
              + newest
              + ") to continue it");
    }
    return seq;
  }

  /** The token of the page after the event with sequence number {@code seq}. */
  static String eventToken(long seq, boolean newestFirst) {
    return encode(EVENTS + "|" + (newestFirst ? "n" : "o") + "|" + seq);
  }

  /**
   * A page of {@code events}, the whole history of a session (the event at index i has sequence
   * number i + 1); events are immutable and shared.
   */
  static ListEventsResponse eventsPageOf(List<Event> events, ListEventsRequest request) {
    int n = request.pageSize();
    return eventsPage(
        EventSelection.page(events, request.newestFirst(), eventBound(request), n + 1),
        n,
        request.newestFirst());
  }

  /**
   * A response from the events that follow the requested position, in page order: up to {@code
   * pageSize + 1} of them, the one past the page only telling that there is a next page.
   */
  static ListEventsResponse eventsPage(
      List<SessionStore.NumberedEvent> followers, int pageSize, boolean newestFirst) {
    List<Event> page = new ArrayList<>(Math.min(pageSize, followers.size()));
    for (int i = 0; i < followers.size() && i < pageSize; i++) {
      page.add(followers.get(i).event());
    }
    Optional<String> next =
        followers.size() > pageSize
            ? Optional.of(eventToken(followers.get(pageSize - 1).seq(), newestFirst))
            : Optional.empty();
    return new ListEventsResponse(page, next);
  }

  // ---- tokens ----

  private static String encode(String text) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String decode(String token, String method) {
    try {
      byte[] bytes = Base64.getUrlDecoder().decode(token);
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (IllegalArgumentException | CharacterCodingException e) {
      throw malformed(token, method, "not URL-safe base64 of UTF-8 text");
    }
  }

  private static IllegalArgumentException malformed(String token, String method, String why) {
    return new IllegalArgumentException(
        "Malformed page token '"
            + shorten(token)
            + "' ("
            + why
            + "): pass a nextPageToken returned by "
            + method
            + " unchanged");
  }

  private static String shorten(String token) {
    return token.length() <= 80 ? token : token.substring(0, 77) + "...";
  }
}
