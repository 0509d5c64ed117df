package dev.adk4j.memory;

import dev.adk4j.sessions.Session;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Single;

/**
 * What an agent remembers across sessions: the events of the sessions added to it, searched by
 * keyword, per user of an app. ADK's memory service contract.
 *
 * <p>Contract (every implementation passes {@code MemoryServiceContract}):
 *
 * <ul>
 *   <li><b>Scope.</b> Memories belong to the app and user of the session they came from; a search
 *       finds only those of its own app and user, never another user's or another app's.
 *   <li><b>What is remembered.</b> Each stored, complete event with text (its non-thought text
 *       parts) becomes one {@link MemoryEntry}: the event's content, author and time. Events
 *       without text are skipped.
 *   <li><b>Adding again.</b> A session may be added many times during its life: each time only
 *       events not yet remembered (by event id) are added, so nothing is duplicated, and memories
 *       stay when the session later drops them (compaction, deletion).
 *   <li><b>Search.</b> The query and the events' text are cut into words (letters and digits; case
 *       ignored); an event matches if it contains at least one word of the query. A search returns
 *       the most recent matches, up to the service's limit, oldest first (by event time, then by
 *       the order they were added).
 *   <li>Implementations are thread-safe; operations are lazy, and their errors come through the
 *       returned source: {@link NullPointerException} or {@link IllegalArgumentException} for a
 *       null, empty or blank app name or user id (naming which).
 * </ul>
 */
public interface BaseMemoryService {

  /**
   * Adds the session's events to the memory of its app and user. Events already remembered (same
   * session and event id) are not added again.
   *
   * @param session the session to remember, with the events to add (as {@code getSession} returns
   *     it)
   */
  Completable addSessionToMemory(Session session);

  /**
   * Searches the memory of one user of one app.
   *
   * @param appName the application
   * @param userId the user whose memories are searched; no other user's are
   * @param query words to look for; a query without any word finds nothing
   * @return the matching memories, oldest first
   */
  Single<SearchMemoryResponse> searchMemory(String appName, String userId, String query);
}
