package dev.adk4j.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Part;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link BaseArtifactService} does, whatever keeps the files: versions from 0, the
 * {@code user:} scope, list, delete, and the refusal of names that leave their session. Subclasses
 * say how to make a fresh, empty service.
 */
public abstract class ArtifactServiceContract {

  /** A fresh, empty service. */
  protected abstract BaseArtifactService createService() throws Exception;

  /** Releases what {@link #createService} opened. */
  protected void closeService(BaseArtifactService service) throws Exception {
    if (service instanceof AutoCloseable c) {
      c.close();
    }
  }

  protected BaseArtifactService artifacts;

  @BeforeEach
  void openService() throws Exception {
    artifacts = createService();
  }

  @AfterEach
  void closeArtifactService() throws Exception {
    closeService(artifacts);
  }

  int save(String session, String file, String text) {
    return artifacts.saveArtifact("app", "alice", session, file, Part.fromText(text)).blockingGet();
  }

  String load(String session, String file, Optional<Integer> version) {
    Part p = artifacts.loadArtifact("app", "alice", session, file, version).blockingGet();
    return p == null ? null : p.text().orElse(null);
  }

  @Test
  void saves_areVersionedFromZero_andLoadReturnsLatestOrTheAskedVersion() {
    assertThat(save("s1", "notes.txt", "v0")).isZero();
    assertThat(save("s1", "notes.txt", "v1")).isEqualTo(1);
    assertThat(load("s1", "notes.txt", Optional.empty())).isEqualTo("v1");
    assertThat(load("s1", "notes.txt", Optional.of(0))).isEqualTo("v0");
    assertThat(load("s1", "notes.txt", Optional.of(7))).isNull();
    assertThat(load("s1", "notes.txt", Optional.of(-1))).isNull();
    assertThat(artifacts.listVersions("app", "alice", "s1", "notes.txt").blockingGet())
        .containsExactly(0, 1);
    assertThat(artifacts.listVersions("app", "alice", "s1", "other.txt").blockingGet()).isEmpty();
    assertThat(load("s1", "other.txt", Optional.empty())).isNull();
  }

  @Test
  void bytesAndTheirMimeType_comeBackAsSaved() {
    byte[] png = new byte[300];
    for (int i = 0; i < png.length; i++) {
      png[i] = (byte) i;
    }
    Part image = Part.fromBytes(png, "image/png");
    assertThat(artifacts.saveArtifact("app", "alice", "s1", "img/chart.png", image).blockingGet())
        .isZero();
    Part loaded = artifacts.loadArtifact("app", "alice", "s1", "img/chart.png", 0).blockingGet();
    assertThat(loaded.inlineData().orElseThrow().data().orElseThrow()).isEqualTo(png);
    assertThat(loaded.inlineData().orElseThrow().mimeType()).contains("image/png");
  }

  @Test
  void sessionFiles_arePerSession_userFilesAreSharedByTheUsersSessions() {
    save("s1", "notes.txt", "one");
    save("s1", "user:profile.md", "me");
    assertThat(load("s2", "notes.txt", Optional.empty())).isNull();
    assertThat(load("s2", "user:profile.md", Optional.empty())).isEqualTo("me");
    assertThat(save("s2", "user:profile.md", "me again")).isEqualTo(1);
    assertThat(load("s1", "user:profile.md", Optional.empty())).isEqualTo("me again");
    assertThat(artifacts.listArtifactKeys("app", "alice", "s2").blockingGet().filenames())
        .containsExactly("user:profile.md");
    assertThat(artifacts.listArtifactKeys("app", "alice", "s1").blockingGet().filenames())
        .containsExactly("notes.txt", "user:profile.md");
    assertThat(artifacts.listArtifactKeys("app", "bob", "s1").blockingGet().filenames()).isEmpty();
    assertThat(artifacts.listArtifactKeys("other", "alice", "s1").blockingGet().filenames())
        .isEmpty();
  }

  @Test
  void listArtifactKeys_isSortedAndNamesEachFileOnce() {
    for (String name : List.of("b.txt", "user:a.txt", "A.txt", "a/b.txt", "b.txt", "a.txt")) {
      save("s1", name, name);
    }
    assertThat(artifacts.listArtifactKeys("app", "alice", "s1").blockingGet().filenames())
        .containsExactly("A.txt", "a.txt", "a/b.txt", "b.txt", "user:a.txt");
  }

  @Test
  void delete_removesEveryVersion() {
    save("s1", "notes.txt", "v0");
    save("s1", "notes.txt", "v1");
    save("s2", "notes.txt", "other session");
    artifacts.deleteArtifact("app", "alice", "s1", "notes.txt").blockingAwait();
    assertThat(load("s1", "notes.txt", Optional.empty())).isNull();
    assertThat(artifacts.listVersions("app", "alice", "s1", "notes.txt").blockingGet()).isEmpty();
    assertThat(load("s2", "notes.txt", Optional.empty())).isEqualTo("other session");
    assertThat(save("s1", "notes.txt", "again")).isZero();
    // Deleting what does not exist is no error.
    artifacts.deleteArtifact("app", "alice", "s1", "missing.txt").blockingAwait();
  }

  @Test
  void aUsersFile_isDeletedFromAnyOfTheirSessions() {
    save("s1", "user:profile.md", "me");
    artifacts.deleteArtifact("app", "alice", "s2", "user:profile.md").blockingAwait();
    assertThat(load("s1", "user:profile.md", Optional.empty())).isNull();
  }

  @Test
  void concurrentSavesOfOneFile_getDistinctConsecutiveVersions() throws Exception {
    int threads = 4;
    int each = 10;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<List<Integer>>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      done.add(
          pool.submit(
              () -> {
                start.await();
                List<Integer> versions = new ArrayList<>();
                for (int i = 0; i < each; i++) {
                  versions.add(save("s1", "log.txt", thread + ":" + i));
                }
                return versions;
              }));
    }
    start.countDown();
    List<Integer> all = new ArrayList<>();
    for (Future<List<Integer>> f : done) {
      List<Integer> versions = f.get(30, TimeUnit.SECONDS);
      assertThat(versions).isSorted();
      all.addAll(versions);
    }
    pool.shutdown();
    assertThat(all).doesNotHaveDuplicates().hasSize(threads * each);
    assertThat(artifacts.listVersions("app", "alice", "s1", "log.txt").blockingGet())
        .hasSize(threads * each)
        .isSorted()
        .startsWith(0)
        .endsWith(threads * each - 1);
  }

  @Test
  void aNameThatLeavesItsSession_isRefused_andNothingIsStored() {
    for (String bad : new String[] {"../other/notes.txt", "user:../x", "/etc/passwd", ""}) {
      assertThatThrownBy(() -> save("s1", bad, "x"))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Invalid artifact name");
      assertThatThrownBy(() -> load("s1", bad, Optional.empty()))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> artifacts.deleteArtifact("app", "alice", "s1", bad).blockingAwait())
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> artifacts.listVersions("app", "alice", "s1", bad).blockingGet())
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(artifacts.listArtifactKeys("app", "alice", "s1").blockingGet().filenames())
        .isEmpty();
  }
}
