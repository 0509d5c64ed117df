package dev.adk4j.benchmarks;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * A fresh database for one benchmark trial: a SQLite file in a new temporary folder, or an embedded
 * PostgreSQL server (binaries from Maven Central; zonky starts it with {@code -F} and {@code
 * synchronous_commit=off}, so its commits are not flushed to disk).
 */
final class BenchDatabase implements AutoCloseable {

  static final String SQLITE = "sqlite";
  static final String POSTGRESQL = "postgresql";

  final String kind;
  final String url;
  private final @Nullable EmbeddedPostgres postgres;
  private final @Nullable Path folder;

  private BenchDatabase(
      String kind, String url, @Nullable EmbeddedPostgres postgres, @Nullable Path folder) {
    this.kind = kind;
    this.url = url;
    this.postgres = postgres;
    this.folder = folder;
  }

  static BenchDatabase start(String kind) {
    try {
      switch (kind) {
        case SQLITE:
          Path folder = Files.createTempDirectory("adk4j-bench");
          return new BenchDatabase(
              kind, "jdbc:sqlite:" + folder.resolve("sessions.db"), null, folder);
        case POSTGRESQL:
          EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
          return new BenchDatabase(kind, pg.getJdbcUrl("postgres", "postgres"), pg, null);
        default:
          throw new IllegalArgumentException("Unknown database " + kind);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A database of {@code kind} at {@code url} that the caller started and will stop. */
  static BenchDatabase external(String kind, String url) {
    return new BenchDatabase(kind, url, null, null);
  }

  boolean isSqlite() {
    return SQLITE.equals(kind);
  }

  @Override
  public void close() throws IOException {
    if (postgres != null) {
      postgres.close();
    }
    if (folder != null) {
      try (Stream<Path> files = Files.walk(folder)) {
        for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
          Files.deleteIfExists(p);
        }
      }
    }
  }
}
