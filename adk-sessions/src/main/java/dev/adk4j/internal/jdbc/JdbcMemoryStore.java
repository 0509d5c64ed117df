package dev.adk4j.internal.jdbc;

import com.google.genai.types.Content;
import dev.adk4j.internal.Json;
import dev.adk4j.memory.MemoryEntry;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.SessionException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The storage of {@code DatabaseMemoryService}: the table {@code adk_memories} (migration V10) in
 * the session store's database, through the same connection handling ({@link Transactions}: one
 * transaction per call, retried after transient failures) and the same schema migration as {@link
 * JdbcSessionStore}, which it opens and closes.
 *
 * <p>Full-text search per dialect: SQLite matches the FTS5 index {@code adk_memories_fts} with the
 * query's words joined by {@code OR}, each quoted (so no word is read as FTS5 syntax), then keeps
 * the rows of the app and user; PostgreSQL matches the GIN-indexed {@code words} tsvector ('simple'
 * configuration) with {@code to_tsquery} of the words joined by {@code |}, each quoted, and the app
 * and user condition. Both return the newest matches first, ties in the order rows were added.
 *
 * <p>Not API. Thread-safe.
 */
public final class JdbcMemoryStore implements AutoCloseable {

  /** One event to remember: its session, id, author, time (epoch millis), content and text. */
  public record Row(
      String sessionId,
      String eventId,
      @Nullable String author,
      long time,
      Content content,
      String text) {
    public Row {
      Objects.requireNonNull(sessionId, "sessionId");
      Objects.requireNonNull(eventId, "eventId");
      Objects.requireNonNull(content, "content");
      Objects.requireNonNull(text, "text");
    }
  }

  private static final String SELECT_EVENT_IDS =
      "SELECT event_id FROM adk_memories WHERE app_name = ? AND user_id = ? AND session_id = ?";

  private final JdbcSessionStore sessions;
  private final Transactions tx;
  private final String insert;
  private final String search;

  private JdbcMemoryStore(JdbcSessionStore sessions) {
    this.sessions = sessions;
    this.tx = sessions.transactions();
    boolean postgres = tx.dialect() == Dialect.POSTGRESQL;
    this.insert =
        "INSERT INTO adk_memories (app_name, user_id, session_id, event_id, author, event_time,"
            + " content, text) VALUES (?, ?, ?, ?, ?, ?, "
            + (postgres ? "CAST(? AS jsonb)" : "?")
            + ", ?) ON CONFLICT (app_name, user_id, session_id, event_id) DO NOTHING";
    this.search =
        postgres
            ? "SELECT author, event_time, content FROM adk_memories"
                + " WHERE app_name = ? AND user_id = ? AND words @@ to_tsquery('simple', ?)"
                + " ORDER BY event_time DESC, pk DESC LIMIT ?"
            : "SELECT m.author, m.event_time, m.content FROM adk_memories_fts f"
                + " JOIN adk_memories m ON m.pk = f.rowid"
                + " WHERE adk_memories_fts MATCH ? AND m.app_name = ? AND m.user_id = ?"
                + " ORDER BY m.event_time DESC, m.pk DESC LIMIT ?";
  }

  /**
   * Opens a store on {@code jdbcUrl} with its own connection pool, as {@link JdbcSessionStore#open}
   * does (schema migrated, checked).
   */
  public static JdbcMemoryStore open(
      String jdbcUrl,
      @Nullable String user,
      @Nullable String password,
      DatabaseSessionConfig config) {
    return new JdbcMemoryStore(JdbcSessionStore.open(jdbcUrl, user, password, config));
  }

  /** Opens a store on a {@link DataSource} the caller owns, as {@link JdbcSessionStore#open}. */
  public static JdbcMemoryStore open(DataSource dataSource, DatabaseSessionConfig config) {
    return new JdbcMemoryStore(JdbcSessionStore.open(dataSource, config));
  }

  /** The database product: {@code "SQLite"} or {@code "PostgreSQL"}. */
  public String databaseProduct() {
    return sessions.databaseProduct();
  }

  /**
   * Remembers the rows of one session that are not remembered yet, in one transaction: the event
   * ids already stored for the session are read first (the natural key's index), the others
   * inserted ({@code ON CONFLICT DO NOTHING} covers a concurrent add of the same session).
   *
   * @return the number of rows added
   */
  public int add(String app, String user, String sessionId, List<Row> rows) {
    if (rows.isEmpty()) {
      return 0;
    }
    return tx.run(
        true,
        "add " + SessionRows.describe(app, user, sessionId) + " to memory",
        c -> {
          Set<String> stored = new HashSet<>();
          try (PreparedStatement ps = c.prepareStatement(SELECT_EVENT_IDS)) {
            ps.setString(1, app);
            ps.setString(2, user);
            ps.setString(3, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                stored.add(rs.getString(1));
              }
            }
          }
          int added = 0;
          try (PreparedStatement ps = c.prepareStatement(insert)) {
            for (Row row : rows) {
              if (!stored.add(row.eventId())) {
                continue;
              }
              ps.setString(1, app);
              ps.setString(2, user);
              ps.setString(3, sessionId);
              ps.setString(4, row.eventId());
              ps.setString(5, row.author());
              ps.setLong(6, row.time());
              ps.setString(7, JsonText.write(tx.dialect(), row.content()));
              ps.setString(8, row.text());
              ps.addBatch();
              added++;
            }
            if (added > 0) {
              ps.executeBatch();
            }
          }
          return added;
        });
  }

  /**
   * The newest {@code limit} memories of the app and user that contain one of {@code words}
   * (lower-case runs of letters and digits), oldest first.
   *
   * @throws SessionException if a stored content is not valid JSON of a content
   */
  public List<MemoryEntry> search(String app, String user, Set<String> words, int limit) {
    if (words.isEmpty()) {
      return List.of();
    }
    boolean postgres = tx.dialect() == Dialect.POSTGRESQL;
    List<String> quoted = new ArrayList<>(words.size());
    for (String w : words) {
      // Words are letters and digits only: nothing to escape inside the quotes.
      quoted.add(postgres ? "'" + w + "'" : "\"" + w + "\"");
    }
    String match = String.join(postgres ? " | " : " OR ", quoted);
    String what = "search the memory of user '" + user + "' in app '" + app + "'";
    List<MemoryEntry> found =
        tx.run(
            false,
            what,
            c -> {
              List<MemoryEntry> rows = new ArrayList<>();
              try (PreparedStatement ps = c.prepareStatement(search)) {
                int i = 1;
                if (!postgres) {
                  ps.setString(i++, match);
                }
                ps.setString(i++, app);
                ps.setString(i++, user);
                if (postgres) {
                  ps.setString(i++, match);
                }
                ps.setInt(i, limit);
                try (ResultSet rs = ps.executeQuery()) {
                  while (rs.next()) {
                    rows.add(entry(rs.getString(1), rs.getLong(2), rs.getString(3), what));
                  }
                }
              }
              return rows;
            });
    Collections.reverse(found);
    return found;
  }

  private static MemoryEntry entry(@Nullable String author, long time, String json, String what) {
    Content content;
    try {
      content = Json.fromJson(json, Content.class);
    } catch (IllegalArgumentException e) {
      throw new SessionException(
          "Cannot " + what + ": a stored memory is not valid content: " + e.getMessage(), e);
    }
    return MemoryEntry.builder()
        .content(content)
        .author(author)
        .timestamp(Instant.ofEpochMilli(time))
        .build();
  }

  /** Closes the connection pool if this store opened it. Idempotent. */
  @Override
  public void close() {
    sessions.close();
  }

  @Override
  public String toString() {
    return "JdbcMemoryStore{" + databaseProduct() + "}";
  }
}
