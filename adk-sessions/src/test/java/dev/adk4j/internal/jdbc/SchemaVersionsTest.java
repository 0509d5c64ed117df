package dev.adk4j.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link Schema#VERSIONS}, which lets a start skip Flyway on an up-to-date store, lists exactly the
 * migrations each dialect ships: a migration added without it would never run on a store that has
 * every older one.
 */
class SchemaVersionsTest {

  @ParameterizedTest
  @EnumSource(Dialect.class)
  void versions_listEveryMigrationOfTheDialect_inOrder(Dialect dialect)
      throws IOException, URISyntaxException {
    String folder = dialect.migrations().substring("classpath:".length());
    URL url = Schema.class.getClassLoader().getResource(folder);
    assertThat(url).as("migrations of %s", dialect).isNotNull();
    List<String> versions;
    URI uri = url.toURI();
    // in a jar when the tests run in adk-sessions-tests, in a folder in an IDE
    try (FileSystem jar =
            "jar".equals(uri.getScheme()) ? FileSystems.newFileSystem(uri, Map.of()) : null;
        Stream<Path> files = Files.list(Path.of(uri))) {
      versions =
          files
              .map(f -> f.getFileName().toString())
              .filter(n -> n.matches("V[0-9_]+__.+\\.sql"))
              .map(n -> n.substring(1, n.indexOf("__")).replace('_', '.'))
              .sorted(Comparator.comparingDouble(Double::parseDouble))
              .toList();
    }
    assertThat(Schema.VERSIONS).isEqualTo(versions);
  }
}
