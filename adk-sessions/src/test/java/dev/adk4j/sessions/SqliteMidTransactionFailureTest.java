package dev.adk4j.sessions;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/** {@link MidTransactionFailureContract} on a SQLite file. */
class SqliteMidTransactionFailureTest extends MidTransactionFailureContract {

  private static final AtomicInteger FILES = new AtomicInteger();

  @TempDir Path dir;

  @Override
  protected DataSource newStore() {
    SQLiteDataSource dataSource = new SQLiteDataSource();
    dataSource.setUrl("jdbc:sqlite:" + dir.resolve("faults" + FILES.incrementAndGet() + ".db"));
    return dataSource;
  }

  @Override
  protected void dropStores() {
    // the temporary folder goes with the test
  }

  @Override
  protected SQLException transientFailure(int k) {
    // SQLITE_BUSY, as when the busy timeout runs out
    return new SQLException("[SQLITE_BUSY] injected at statement " + k, null, 5);
  }
}
