package dev.adk4j.sessions;

import com.example.mapstore.MapSessionStore;
import dev.adk4j.events.Event;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import javax.crypto.SecretKey;
import org.jspecify.annotations.Nullable;

/**
 * The {@code secret:} scope over a third party's {@link SessionStore} (the map store of the
 * examples), which outlives the services opened on it: every argument the service hands the store
 * is recorded, and no secret value may be among them.
 */
class StoreSecretStateTest extends SecretStateContract {

  private final MapSessionStore maps = new MapSessionStore();
  private final ConcurrentLinkedQueue<String> handed = new ConcurrentLinkedQueue<>();

  private final SessionStore recording =
      new SessionStore() {
        @Override
        public Session create(
            String appName, String userId, String sessionId, dev.adk4j.state.Scope.Split initial) {
          handed.add(initial.toString());
          return maps.create(appName, userId, sessionId, initial);
        }

        @Override
        public @Nullable Session load(
            String appName, String userId, String sessionId, @Nullable GetSessionConfig config) {
          Session s = maps.load(appName, userId, sessionId, config);
          if (s != null) {
            handed.add(s.state().toString()); // what the store holds, unredacted by the service
          }
          return s;
        }

        @Override
        public List<Session> list(String appName, String userId) {
          return maps.list(appName, userId);
        }

        @Override
        public void delete(String appName, String userId, String sessionId) {
          maps.delete(appName, userId, sessionId);
        }

        @Override
        public Appended append(
            PendingAppend append, long expectedRevision, @Nullable String leaseOwner) {
          handed.add(append.delta().toString());
          handed.add(append.expected().toString());
          handed.add(append.increments().toString());
          Event e = append.event();
          handed.add(e.toJson());
          return maps.append(append, expectedRevision, leaseOwner);
        }

        @Override
        public SessionLease acquireLease(
            String appName, String userId, String sessionId, Duration maxWait)
            throws InterruptedException {
          return maps.acquireLease(appName, userId, sessionId, maxWait);
        }
      };

  @Override
  protected BaseSessionService open(@Nullable SecretKey key) {
    return new StoreBackedSessionService(recording, SessionLimits.defaults(), key);
  }

  @Override
  protected boolean persistent() {
    return true;
  }

  @Override
  protected String storedText() {
    return String.join("\n", handed);
  }
}
