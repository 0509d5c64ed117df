package dev.adk4j.sessions;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.crypto.SecretKey;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@code secret:} scope in {@link DatabaseSessionService} on PostgreSQL: every row of every
 * {@code adk_} table is read as text and searched for the secret values.
 */
class PostgresSecretStateTest extends SecretStateContract {

  @RegisterExtension
  static final EmbeddedPostgresExtension POSTGRES = new EmbeddedPostgresExtension();

  private String url;

  @BeforeEach
  void newDatabase() throws Exception {
    url = POSTGRES.newMigratedDatabase();
  }

  @Override
  protected void closeStore() throws Exception {
    POSTGRES.dropDatabases();
  }

  @Override
  protected BaseSessionService open(@Nullable SecretKey key) {
    return new DatabaseSessionService(
        url, DatabaseSessionConfig.builder().minimumIdle(0).secretKey(key).build());
  }

  @Override
  protected boolean persistent() {
    return true;
  }

  @Override
  protected String storedText() throws Exception {
    StringBuilder all = new StringBuilder();
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (ResultSet rs =
          s.executeQuery(
              "SELECT table_name FROM information_schema.tables"
                  + " WHERE table_schema = 'public' AND table_name LIKE 'adk%'")) {
        while (rs.next()) {
          tables.add(rs.getString(1));
        }
      }
      org.assertj.core.api.Assertions.assertThat(tables).contains("adk_session_state");
      for (String table : tables) {
        try (ResultSet rs = s.executeQuery("SELECT t::text FROM " + table + " t")) {
          while (rs.next()) {
            all.append(rs.getString(1)).append('\n');
          }
        }
      }
    }
    return all.toString();
  }

  @Override
  protected Optional<String> copySecretRow(String from, String to) throws Exception {
    return SqliteSecretStateTest.SecretRows.copy(
        DriverManager.getConnection(url), APP, "alice", from, to);
  }
}
