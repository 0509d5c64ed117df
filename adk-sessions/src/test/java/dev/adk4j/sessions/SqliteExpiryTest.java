package dev.adk4j.sessions;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.io.TempDir;

/** Expiry, cleanup and retention of {@link DatabaseSessionService} on SQLite. */
class SqliteExpiryTest extends ExpiryContract {

  static final AtomicInteger N = new AtomicInteger();

  @TempDir Path dir;
  String url;

  @Override
  protected BaseSessionService open(Clock clock, @Nullable Duration defaultTtl) {
    url = "jdbc:sqlite:" + dir.resolve("s" + N.incrementAndGet() + ".db");
    return new DatabaseSessionService(
        url,
        DatabaseSessionConfig.builder()
            .minimumIdle(0)
            .clock(clock)
            .defaultTimeToLive(defaultTtl)
            .build());
  }

  @Override
  protected Optional<Map<String, Long>> rowCounts() throws Exception {
    return Optional.of(count(DriverManager.getConnection(url)));
  }

  static Map<String, Long> count(Connection connection) throws Exception {
    Map<String, Long> counts = new LinkedHashMap<>();
    try (Connection c = connection;
        Statement s = c.createStatement()) {
      for (String table : tables()) {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
          rs.next();
          counts.put(table, rs.getLong(1));
        }
      }
    }
    return counts;
  }
}
