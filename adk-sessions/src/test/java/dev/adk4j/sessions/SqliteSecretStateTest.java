package dev.adk4j.sessions;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.Optional;
import java.util.stream.Stream;
import javax.crypto.SecretKey;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code secret:} scope in {@link DatabaseSessionService} on SQLite: the bytes of the database
 * file and its write-ahead log are searched for the secret values.
 */
class SqliteSecretStateTest extends SecretStateContract {

  @TempDir Path dir;

  String url() {
    return "jdbc:sqlite:" + dir.resolve("sessions.db");
  }

  @Override
  protected BaseSessionService open(@Nullable SecretKey key) {
    return new DatabaseSessionService(
        url(), DatabaseSessionConfig.builder().minimumIdle(0).secretKey(key).build());
  }

  @Override
  protected boolean persistent() {
    return true;
  }

  /** The database file, its WAL and shared-memory files, byte for byte. */
  @Override
  protected String storedText() throws Exception {
    StringBuilder all = new StringBuilder();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        all.append(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1));
      }
    }
    assertStored(all);
    return all.toString();
  }

  static void assertStored(CharSequence all) {
    org.assertj.core.api.Assertions.assertThat(all.toString()).contains("adk_session_state");
  }

  @Override
  protected Optional<String> copySecretRow(String from, String to) throws Exception {
    return SecretRows.copy(DriverManager.getConnection(url()), APP, "alice", from, to);
  }

  /** SQL shared with the PostgreSQL test. */
  static final class SecretRows {
    private SecretRows() {}

    static Optional<String> copy(Connection c, String app, String user, String from, String to)
        throws Exception {
      try (c) {
        try (PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO adk_sessions (app_name, user_id, session_id, revision,"
                    + " update_seconds, update_nanos) VALUES (?, ?, ?, 0, 0, 0)")) {
          ps.setString(1, app);
          ps.setString(2, user);
          ps.setString(3, to);
          ps.executeUpdate();
        }
        try (PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO adk_session_state (session_pk, state_key, state_value)"
                    + " SELECT t.pk, s.state_key, s.state_value FROM adk_session_state s"
                    + " JOIN adk_sessions f ON f.pk = s.session_pk, adk_sessions t"
                    + " WHERE f.app_name = ? AND f.user_id = ? AND f.session_id = ?"
                    + " AND t.app_name = f.app_name AND t.user_id = f.user_id"
                    + " AND t.session_id = ? AND s.state_key = 'secret:api_key'")) {
          ps.setString(1, app);
          ps.setString(2, user);
          ps.setString(3, from);
          ps.setString(4, to);
          return ps.executeUpdate() == 1 ? Optional.of(to) : Optional.empty();
        }
      }
    }
  }
}
