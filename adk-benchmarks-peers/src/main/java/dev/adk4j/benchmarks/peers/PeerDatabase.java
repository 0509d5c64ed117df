package dev.adk4j.benchmarks.peers;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * A fresh database for one trial: a SQLite file in a new temporary folder, or an embedded
 * PostgreSQL server (the zonky binaries the project's tests use, default settings: {@code fsync}
 * on), on this machine's cores.
 */
final class PeerDatabase implements AutoCloseable {

  final String kind;
  final String url;
  private final EmbeddedPostgres postgres;
  private final Path folder;

  private PeerDatabase(String kind, String url, EmbeddedPostgres postgres, Path folder) {
    this.kind = kind;
    this.url = url;
    this.postgres = postgres;
    this.folder = folder;
  }

  static PeerDatabase start(String kind) {
    try {
      switch (kind) {
        case PeerWorkload.SQLITE:
          Path folder = Files.createTempDirectory("adk4j-peers");
          return new PeerDatabase(kind, "jdbc:sqlite:" + folder.resolve("peers.db"), null, folder);
        case PeerWorkload.POSTGRESQL:
          EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
          return new PeerDatabase(kind, pg.getJdbcUrl("postgres", "postgres"), pg, null);
        default:
          throw new IllegalArgumentException("unknown store " + kind);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** PostgreSQL's own data source; null on SQLite. */
  DataSource postgresDataSource() {
    return postgres == null ? null : postgres.getPostgresDatabase();
  }

  @Override
  public void close() {
    try {
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
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
