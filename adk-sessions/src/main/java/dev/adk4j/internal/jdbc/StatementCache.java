package dev.adk4j.internal.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Prepared statements kept per physical connection, for SQLite: its driver compiles the SQL at
 * every {@code prepareStatement}, where PostgreSQL's keeps server-prepared statements itself. A
 * transaction's connection is wrapped ({@link #wrap}); its {@code prepareStatement(sql)} returns
 * the statement this physical connection compiled for that text before, and closing it clears its
 * parameters and batch instead of closing it. The statements are prepared on the connection under
 * the pool's proxy (which would close them when the connection goes back to the pool), so they live
 * as long as the physical connection; the connections the pool closed (retired or evicted) are
 * forgotten when a new one comes.
 *
 * <p>A statement is handed to one user at a time: a second prepare of the same text while the first
 * is open gets a statement of its own, closed when closed. At most {@value #MAX_PER_CONNECTION}
 * texts are kept per connection (the least recently used is closed). After a failed transaction its
 * connection's statements are all closed ({@link #evict}), so that nothing a failure left behind is
 * reused. Used by one thread per connection at a time, as a pool hands them out.
 */
final class StatementCache {

  /** The most statements kept per connection; the store's SQL has fewer distinct texts. */
  static final int MAX_PER_CONNECTION = 64;

  private final Map<Connection, Map<String, Entry>> byConnection =
      Collections.synchronizedMap(new IdentityHashMap<>());

  /** A kept statement and whether it is handed out now. */
  private static final class Entry {
    final PreparedStatement statement;
    boolean inUse;

    Entry(PreparedStatement statement) {
      this.statement = statement;
    }
  }

  /** {@code c} (a pool's connection) with its prepares served from its physical connection's. */
  Connection wrap(Connection c) throws SQLException {
    Connection physical = c.isWrapperFor(Connection.class) ? c.unwrap(Connection.class) : c;
    Map<String, Entry> kept = byConnection.get(physical);
    if (kept == null) {
      forgetClosed();
      kept = newLru();
      byConnection.put(physical, kept);
    }
    Map<String, Entry> statements = kept;
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, m, args) -> {
              if (m.getName().equals("prepareStatement")
                  && args != null
                  && args.length == 1
                  && args[0] instanceof String) {
                return prepare(physical, statements, (String) args[0]);
              }
              return call(c, m, args);
            });
  }

  /** Closes the statements kept for {@code c}'s physical connection: a transaction on it failed. */
  void evict(Connection c) {
    Connection physical;
    try {
      physical = c.isWrapperFor(Connection.class) ? c.unwrap(Connection.class) : c;
    } catch (SQLException e) {
      return;
    }
    Map<String, Entry> kept = byConnection.remove(physical);
    if (kept != null) {
      closeAll(new ArrayList<>(kept.values()));
    }
  }

  /**
   * Forgets the connections the pool has closed since (their statements, closed with them, hold
   * them: nothing else would let them go).
   */
  private void forgetClosed() {
    synchronized (byConnection) {
      byConnection.keySet().removeIf(StatementCache::isClosed);
    }
  }

  private static boolean isClosed(Connection c) {
    try {
      return c.isClosed();
    } catch (SQLException e) {
      return true;
    }
  }

  private static Map<String, Entry> newLru() {
    return new LinkedHashMap<>(32, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
        if (size() > MAX_PER_CONNECTION && !eldest.getValue().inUse) {
          Transactions.closeQuietly(eldest.getValue().statement);
          return true;
        }
        return false;
      }
    };
  }

  private static PreparedStatement prepare(Connection physical, Map<String, Entry> kept, String sql)
      throws SQLException {
    Entry entry = kept.get(sql);
    if (entry == null) {
      entry = new Entry(physical.prepareStatement(sql));
      kept.put(sql, entry);
    } else if (entry.inUse) {
      return physical.prepareStatement(sql); // open twice at once: one of its own
    }
    entry.inUse = true;
    return lent(entry);
  }

  /** The kept statement as its user sees it: closing it gives it back. */
  private static PreparedStatement lent(Entry entry) {
    PreparedStatement ps = entry.statement;
    InvocationHandler handler =
        (proxy, m, args) -> {
          switch (m.getName()) {
            case "close":
              if (entry.inUse) {
                entry.inUse = false;
                ps.clearParameters();
                ps.clearBatch();
              }
              return null;
            case "isClosed":
              return !entry.inUse || ps.isClosed();
            case "unwrap":
              return ((Class<?>) args[0]).isInstance(proxy) ? proxy : ps.unwrap((Class<?>) args[0]);
            case "isWrapperFor":
              return ((Class<?>) args[0]).isInstance(proxy) || ps.isWrapperFor((Class<?>) args[0]);
            default:
              return call(ps, m, args);
          }
        };
    return (PreparedStatement)
        Proxy.newProxyInstance(
            PreparedStatement.class.getClassLoader(),
            new Class<?>[] {PreparedStatement.class},
            handler);
  }

  private static void closeAll(List<Entry> entries) {
    for (Entry e : entries) {
      Transactions.closeQuietly(e.statement);
    }
  }

  private static @Nullable Object call(Object target, Method m, @Nullable Object[] args)
      throws Throwable {
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
