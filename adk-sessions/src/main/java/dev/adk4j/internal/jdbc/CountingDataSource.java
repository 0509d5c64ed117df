package dev.adk4j.internal.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A {@link DataSource} that counts the database work done through its connections: transactions,
 * statements executed, round trips and statements prepared. For tests and benchmarks that check how
 * much work an operation costs; it changes nothing that passes through it.
 *
 * <p>What is counted:
 *
 * <ul>
 *   <li><b>transactions</b>: each {@code COMMIT} or {@code ROLLBACK}, sent as SQL or through {@link
 *       Connection#commit()}/{@link Connection#rollback()}; <b>writing transactions</b> those of
 *       them in which an {@code INSERT}, {@code UPDATE} or {@code DELETE} ran (on SQLite with
 *       {@code synchronous=FULL}, and on PostgreSQL with {@code synchronous_commit=on}, each such
 *       commit waits for one fsync of the write-ahead log).
 *   <li><b>statements</b>: every statement the database executes: each {@code execute...} call
 *       (each statement of a multi-statement text, as the store's {@link Pipeline} sends on
 *       PostgreSQL), each row of a batch, and each commit or rollback (including {@code BEGIN},
 *       {@code PRAGMA} and {@code SET}).
 *   <li><b>round trips</b>: each {@code execute...} call (a multi-statement text is one), each
 *       {@code executeBatch} (the PostgreSQL driver sends a batch's rows in one exchange) and each
 *       commit or rollback. PostgreSQL's driver sends a transaction's {@code BEGIN} with its first
 *       statement, so that costs none. On SQLite, which has no server, it is the number of calls
 *       into the library.
 *   <li><b>prepares</b>: {@link Connection#prepareStatement} calls. SQLite's driver compiles the
 *       statement at each one; PostgreSQL's keeps server-prepared statements per connection by
 *       their text, so a repeated prepare costs it nothing.
 * </ul>
 *
 * Work the pool does below this DataSource (a liveness check of a connection idle for longer than
 * HikariCP's half-second bypass window) is not counted. Thread-safe.
 *
 * <p>Internal to adk4j (public for its tests and benchmarks): not part of its API, may change in
 * any release.
 */
public final class CountingDataSource extends DelegatingDataSource {

  /** The work counted so far, or between two snapshots ({@link #minus}). */
  public record Counts(
      long transactions, long writeTransactions, long statements, long roundTrips, long prepares) {

    /** This count less an earlier one: the work done in between. */
    public Counts minus(Counts earlier) {
      return new Counts(
          transactions - earlier.transactions,
          writeTransactions - earlier.writeTransactions,
          statements - earlier.statements,
          roundTrips - earlier.roundTrips,
          prepares - earlier.prepares);
    }

    /** This count plus another. */
    public Counts plus(Counts other) {
      return new Counts(
          transactions + other.transactions,
          writeTransactions + other.writeTransactions,
          statements + other.statements,
          roundTrips + other.roundTrips,
          prepares + other.prepares);
    }

    @Override
    public String toString() {
      return transactions
          + " tx ("
          + writeTransactions
          + " writing), "
          + statements
          + " statements, "
          + roundTrips
          + " round trips, "
          + prepares
          + " prepares";
    }
  }

  private final AtomicLong transactions = new AtomicLong();
  private final AtomicLong writeTransactions = new AtomicLong();
  private final AtomicLong statements = new AtomicLong();
  private final AtomicLong roundTrips = new AtomicLong();
  private final AtomicLong prepares = new AtomicLong();

  /**
   * The counting proxies of the connections under this DataSource's ({@code unwrap(Connection)}),
   * one per physical connection so that a store keys its per-connection settings and statements on
   * it as it would on the connection itself. Kept as long as this DataSource (each proxy holds its
   * connection): for tests and benchmarks, whose pools keep their connections.
   */
  private final Map<Connection, Connection> unwrapped =
      Collections.synchronizedMap(new WeakHashMap<>());

  public CountingDataSource(DataSource delegate) {
    super(delegate);
  }

  /** The work counted since this DataSource was made. */
  public Counts counts() {
    return new Counts(
        transactions.get(),
        writeTransactions.get(),
        statements.get(),
        roundTrips.get(),
        prepares.get());
  }

  @Override
  public Connection getConnection() throws SQLException {
    return wrap(super.getConnection());
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return wrap(super.getConnection(username, password));
  }

  private Connection wrap(Connection c) {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            new ConnectionHandler(c));
  }

  private static boolean isWrite(@Nullable String sql) {
    if (sql == null) {
      return false;
    }
    String head = sql.stripLeading().toUpperCase(Locale.ROOT);
    return head.startsWith("INSERT")
        || head.startsWith("UPDATE")
        || head.startsWith("DELETE")
        || head.startsWith("WITH");
  }

  private static @Nullable Object call(Object target, Method m, @Nullable Object[] args)
      throws Throwable {
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** One connection: whether its current transaction wrote, and its statements. */
  private final class ConnectionHandler implements InvocationHandler {
    private final Connection c;
    private boolean wrote;

    ConnectionHandler(Connection c) {
      this.c = c;
    }

    void executed(@Nullable String sql, long rows) {
      statements.addAndGet(rows);
      roundTrips.incrementAndGet();
      if (sql == null) {
        return;
      }
      String head = sql.stripLeading().toUpperCase(Locale.ROOT);
      if (head.startsWith("COMMIT") || head.startsWith("ROLLBACK") || head.startsWith("END")) {
        ended();
      } else if (isWrite(sql)) {
        wrote = true;
      }
    }

    void ended() {
      transactions.incrementAndGet();
      if (wrote) {
        writeTransactions.incrementAndGet();
      }
      wrote = false;
    }

    @Override
    public @Nullable Object invoke(Object proxy, Method m, @Nullable Object[] args)
        throws Throwable {
      switch (m.getName()) {
        case "prepareStatement":
          prepares.incrementAndGet();
          return statement(
              (Statement) java.util.Objects.requireNonNull(call(c, m, args)),
              args == null ? null : (String) args[0],
              PreparedStatement.class);
        case "createStatement":
          return statement(
              (Statement) java.util.Objects.requireNonNull(call(c, m, args)),
              null,
              Statement.class);
        case "commit":
        case "rollback":
          if (args == null || args.length == 0) {
            Object result = call(c, m, args);
            statements.incrementAndGet();
            roundTrips.incrementAndGet();
            ended();
            return result;
          }
          return call(c, m, args);
        case "unwrap":
          if (args != null && args[0] == Connection.class) {
            // The physical connection, still counted: a store keys its per-connection settings
            // and statements on it, and prepares on it what outlives the pool's proxy.
            Connection inner = (Connection) java.util.Objects.requireNonNull(call(c, m, args));
            return unwrapped.computeIfAbsent(inner, CountingDataSource.this::wrap);
          }
          return call(c, m, args);
        // isWrapperFor goes to the connection: counting must not change what a store does.
        case "equals":
          return args != null && proxy == args[0];
        case "hashCode":
          return System.identityHashCode(proxy);
        default:
          return call(c, m, args);
      }
    }

    private Statement statement(Statement s, @Nullable String sql, Class<?> type) {
      StatementHandler h = new StatementHandler(this, s, sql);
      return (Statement)
          Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {type}, h);
    }
  }

  /** One statement: its SQL (prepared) and the rows of its pending batch. */
  private static final class StatementHandler implements InvocationHandler {
    private final ConnectionHandler connection;
    private final Statement s;
    private final @Nullable String sql;
    private long batchRows;
    private @Nullable String batchSql;

    StatementHandler(ConnectionHandler connection, Statement s, @Nullable String sql) {
      this.connection = connection;
      this.s = s;
      this.sql = sql;
    }

    @Override
    public @Nullable Object invoke(Object proxy, Method m, @Nullable Object[] args)
        throws Throwable {
      String name = m.getName();
      switch (name) {
        case "execute":
        case "executeQuery":
        case "executeUpdate":
        case "executeLargeUpdate":
          {
            String text = args != null && args.length > 0 ? (String) args[0] : sql;
            Object result = call(s, m, args);
            connection.executed(text, text == null ? 1 : Pipeline.statementsIn(text));
            return result;
          }
        case "addBatch":
          batchRows++;
          if (args != null && args.length > 0) {
            batchSql = (String) args[0];
          }
          return call(s, m, args);
        case "clearBatch":
          batchRows = 0;
          return call(s, m, args);
        case "executeBatch":
        case "executeLargeBatch":
          {
            long rows = batchRows;
            batchRows = 0;
            Object result = call(s, m, args);
            if (rows > 0) {
              connection.executed(sql != null ? sql : batchSql, rows);
            }
            return result;
          }
        case "getConnection":
          return call(s, m, args); // the unwrapped connection; the store never asks
        case "equals":
          return args != null && proxy == args[0];
        case "hashCode":
          return System.identityHashCode(proxy);
        default:
          return call(s, m, args);
      }
    }
  }
}
