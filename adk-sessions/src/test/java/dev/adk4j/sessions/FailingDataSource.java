package dev.adk4j.sessions;

import dev.adk4j.internal.jdbc.DelegatingDataSource;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A {@link DataSource} whose connections count every statement execution ({@code execute*}, {@code
 * executeBatch}) and every {@code commit()}, and fail the k-th one after {@link #failAt}, or each
 * one {@link #failEach} names: the failure is thrown instead of running it, as a database would
 * fail it. Counting and the log of what ran start again at each {@link #failAt}, {@link #failEach}
 * or {@link #count()}.
 */
final class FailingDataSource extends DelegatingDataSource {

  private static final Set<String> EXECUTIONS =
      Set.of(
          "execute",
          "executeQuery",
          "executeUpdate",
          "executeLargeUpdate",
          "executeBatch",
          "executeLargeBatch");

  private final Object lock = new Object();

  /** The proxies of the connections under this DataSource's, one per physical connection. */
  private final java.util.Map<Connection, Connection> unwrapped =
      java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

  private final List<String> executed = new ArrayList<>();
  private int failAt;
  private @Nullable Supplier<SQLException> failure;
  private @Nullable IntFunction<@Nullable SQLException> failures;
  private @Nullable String failed;

  FailingDataSource(DataSource delegate) {
    super(delegate);
  }

  /** From now on, counts executions and fails none. */
  void count() {
    synchronized (lock) {
      executed.clear();
      failAt = 0;
      failure = null;
      failures = null;
      failed = null;
    }
  }

  /** From now on, counts executions and fails the {@code k}-th (1-based) with {@code failure}. */
  void failAt(int k, Supplier<SQLException> failure) {
    synchronized (lock) {
      executed.clear();
      this.failAt = k;
      this.failure = failure;
      this.failures = null;
      this.failed = null;
    }
  }

  /**
   * From now on, counts executions and fails the k-th (1-based) with {@code failures.apply(k)},
   * where that is not null; {@link #failed()} is then the last execution failed.
   */
  void failEach(IntFunction<@Nullable SQLException> failures) {
    synchronized (lock) {
      executed.clear();
      this.failAt = 0;
      this.failure = null;
      this.failures = failures;
      this.failed = null;
    }
  }

  /** What ran (or was failed) since the last {@link #count()} or {@link #failAt}, in order. */
  List<String> executed() {
    synchronized (lock) {
      return List.copyOf(executed);
    }
  }

  /** The execution that was failed, if it was reached. */
  @Nullable String failed() {
    synchronized (lock) {
      return failed;
    }
  }

  private void tick(String what) throws SQLException {
    SQLException toThrow = null;
    synchronized (lock) {
      executed.add(what);
      if (executed.size() == failAt && failure != null) {
        failed = what;
        toThrow = failure.get();
      } else if (failures != null) {
        toThrow = failures.apply(executed.size());
        if (toThrow != null) {
          failed = what;
        }
      }
    }
    if (toThrow != null) {
      throw toThrow;
    }
  }

  @Override
  public Connection getConnection() throws SQLException {
    return connection(super.getConnection());
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return connection(super.getConnection(username, password));
  }

  private Connection connection(Connection real) {
    return proxy(
        Connection.class,
        real,
        (p, method, args) -> {
          String name = method.getName();
          if (name.equals("commit")) {
            tick("COMMIT (driver)");
          }
          Object result = invoke(real, method, args);
          if (name.equals("unwrap") && args[0] == Connection.class) {
            // The physical connection (a store keeps its statements there), still failing.
            return unwrapped.computeIfAbsent((Connection) result, this::connection);
          }
          if (result instanceof CallableStatement cs) {
            return statement(CallableStatement.class, cs, (String) args[0]);
          }
          if (result instanceof PreparedStatement ps) {
            return statement(PreparedStatement.class, ps, (String) args[0]);
          }
          if (result instanceof Statement s) {
            return statement(Statement.class, s, null);
          }
          return result;
        });
  }

  private <S extends Statement> S statement(Class<S> type, S real, @Nullable String sql) {
    return proxy(
        type,
        real,
        (p, method, args) -> {
          if (EXECUTIONS.contains(method.getName())) {
            String text = sql != null ? sql : args != null && args.length > 0 ? "" + args[0] : "?";
            tick(
                (method.getName().equals("executeBatch") ? "batch: " : "")
                    + text.substring(0, Math.min(60, text.length())));
          }
          return invoke(real, method, args);
        });
  }

  private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args)
      throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> T proxy(Class<T> type, T real, InvocationHandler handler) {
    return (T)
        Proxy.newProxyInstance(
            FailingDataSource.class.getClassLoader(), new Class<?>[] {type}, handler);
  }
}
