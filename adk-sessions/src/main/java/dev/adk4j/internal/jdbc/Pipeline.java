package dev.adk4j.internal.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Writes of one transaction whose results are not needed one by one. On PostgreSQL they are queued
 * and run in order by {@link #run} as one multi-statement prepared statement, which its driver
 * sends in one round trip (each statement parsed, bound and executed in turn, one sync at the end);
 * on SQLite, which has no round trips to save (and whose driver runs only the first statement of a
 * text), each runs when it is added. Either way each statement runs exactly as it would alone, in
 * the same order and transaction, and the first failure stops the rest and fails the transaction. A
 * write whose count matters (an insert that must add a row) names the exception to throw when it
 * adds none.
 *
 * <p>Work that must read something before going on runs the pipeline first ({@link #run}), so that
 * the read sees the queued writes and failures come in the order of the statements. Not
 * thread-safe: one per transaction.
 */
final class Pipeline {

  /** Binds a statement's parameters from {@code first}; returns the index after the last. */
  @FunctionalInterface
  interface Binder {
    int bind(PreparedStatement ps, int first) throws SQLException;
  }

  /** The most statements sent in one round trip; more run in several. */
  static final int MAX_STATEMENTS = 16;

  private final Connection c;
  private final boolean together;
  private final List<String> sql = new ArrayList<>(8);
  private final List<Binder> binders = new ArrayList<>(8);
  private final List<@Nullable Supplier<? extends RuntimeException>> ifNoRow = new ArrayList<>(8);

  /** A pipeline on the transaction's connection {@code c}: one round trip on PostgreSQL. */
  Pipeline(Connection c, Dialect dialect) {
    this.c = c;
    this.together = dialect == Dialect.POSTGRESQL;
  }

  /** Queues a write (on SQLite: runs it). */
  void add(String statement, Binder binder) throws SQLException {
    add(statement, binder, null);
  }

  /**
   * Queues a write that must change at least one row: if it changes none, {@link #run} throws what
   * {@code ifNoRow} gives (after the statements queued before it ran, and those after it, which the
   * transaction's rollback undoes).
   */
  void add(String statement, Binder binder, @Nullable Supplier<? extends RuntimeException> ifNoRow)
      throws SQLException {
    if (!together) {
      try (PreparedStatement ps = c.prepareStatement(statement)) {
        binder.bind(ps, 1);
        if (ps.executeUpdate() == 0 && ifNoRow != null) {
          throw ifNoRow.get();
        }
      }
      return;
    }
    if (sql.size() == MAX_STATEMENTS) {
      run();
    }
    sql.add(statement);
    binders.add(binder);
    this.ifNoRow.add(ifNoRow);
  }

  boolean isEmpty() {
    return sql.isEmpty();
  }

  /** Runs the queued writes in order, in one round trip, and empties the queue. */
  void run() throws SQLException {
    if (sql.isEmpty()) {
      return;
    }
    int n = sql.size();
    String text = n == 1 ? sql.get(0) : String.join("; ", sql);
    try (PreparedStatement ps = c.prepareStatement(text)) {
      int next = 1;
      for (Binder b : binders) {
        next = b.bind(ps, next);
      }
      ps.execute();
      for (int i = 0; i < n; i++) {
        Supplier<? extends RuntimeException> failure = ifNoRow.get(i);
        if (failure != null && ps.getUpdateCount() == 0) {
          throw failure.get();
        }
        if (i + 1 < n) {
          ps.getMoreResults();
        }
      }
    } finally {
      sql.clear();
      binders.clear();
      ifNoRow.clear();
    }
  }

  /**
   * The number of statements in a text this class ran: its {@code ;} separators plus one (the
   * store's SQL has none in literals). For {@link CountingDataSource}.
   */
  static int statementsIn(String text) {
    int n = 1;
    for (int i = text.indexOf(';'); i >= 0; i = text.indexOf(';', i + 1)) {
      n++;
    }
    return n;
  }
}
