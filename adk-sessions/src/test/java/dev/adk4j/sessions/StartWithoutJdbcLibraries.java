package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import java.lang.reflect.Proxy;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Run in a child JVM by {@link JdbcDependenciesTest}, with some of the database libraries left off
 * the classpath, as an application that depends on adk-sessions alone: uses an {@link
 * InMemorySessionService}, then tries a {@link DatabaseSessionService} on each URL given and, for
 * the argument {@code datasource}, on a caller's {@link DataSource} that must not be used. Prints
 * one line per step.
 */
public final class StartWithoutJdbcLibraries {
  private StartWithoutJdbcLibraries() {}

  public static void main(String[] urls) {
    InMemorySessionService memory = new InMemorySessionService();
    Session session =
        memory.createSession("app", "alice", Map.of("user:theme", "dark"), "s1").blockingGet();
    memory
        .appendEvent(
            session,
            Event.builder()
                .author("user")
                .actions(EventActions.builder().stateDelta(Map.of("count", 1)).build())
                .build())
        .blockingGet();
    Session read = memory.getSession("app", "alice", "s1").blockingGet();
    System.out.println(
        "in-memory: " + read.state().get("user:theme") + " " + read.state().get("count"));

    for (String url : urls) {
      if (url.equals("datasource")) {
        onDataSource();
        continue;
      }
      try (DatabaseSessionService db = new DatabaseSessionService(url)) {
        db.createSession("app", "alice", null, "s1").blockingGet();
        System.out.println("started: " + url);
      } catch (RuntimeException e) {
        System.out.println(
            "refused: " + url + " " + e.getClass().getName() + ": " + e.getMessage());
      }
      try (dev.adk4j.memory.DatabaseMemoryService m =
          new dev.adk4j.memory.DatabaseMemoryService(url)) {
        System.out.println("memory started: " + url + " " + m);
      } catch (RuntimeException e) {
        System.out.println(
            "memory refused: " + url + " " + e.getClass().getName() + ": " + e.getMessage());
      }
    }
  }

  private static void onDataSource() {
    DataSource untouchable =
        (DataSource)
            Proxy.newProxyInstance(
                DataSource.class.getClassLoader(),
                new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                  throw new AssertionError("the DataSource was used: " + method.getName());
                });
    try (DatabaseSessionService db =
        new DatabaseSessionService(untouchable, DatabaseSessionConfig.defaults())) {
      System.out.println("started: DataSource " + db);
    } catch (RuntimeException e) {
      System.out.println("refused: DataSource " + e.getClass().getName() + ": " + e.getMessage());
    }
  }
}
