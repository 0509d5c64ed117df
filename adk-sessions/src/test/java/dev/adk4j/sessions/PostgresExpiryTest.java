package dev.adk4j.sessions;

import java.sql.DriverManager;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Expiry, cleanup and retention of {@link DatabaseSessionService} on PostgreSQL. */
class PostgresExpiryTest extends ExpiryContract {

  @RegisterExtension
  static final EmbeddedPostgresExtension POSTGRES = new EmbeddedPostgresExtension();

  String url;

  @Override
  protected BaseSessionService open(Clock clock, @Nullable Duration defaultTtl) throws Exception {
    url = POSTGRES.newMigratedDatabase();
    return new DatabaseSessionService(
        url,
        DatabaseSessionConfig.builder()
            .minimumIdle(0)
            .clock(clock)
            .defaultTimeToLive(defaultTtl)
            .build());
  }

  @AfterEach
  void dropDatabases() throws Exception {
    closeService();
    POSTGRES.dropDatabases();
  }

  @Override
  protected Optional<Map<String, Long>> rowCounts() throws Exception {
    return Optional.of(SqliteExpiryTest.count(DriverManager.getConnection(url)));
  }
}
