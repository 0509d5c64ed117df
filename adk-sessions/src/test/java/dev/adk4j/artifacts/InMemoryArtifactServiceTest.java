package dev.adk4j.artifacts;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Part;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InMemoryArtifactServiceTest {

  final InMemoryArtifactService artifacts = new InMemoryArtifactService();

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
    assertThat(artifacts.listVersions("app", "alice", "s1", "notes.txt").blockingGet())
        .containsExactly(0, 1);
  }

  @Test
  void sessionFiles_arePerSession_userFilesAreSharedByTheUsersSessions() {
    save("s1", "notes.txt", "one");
    save("s1", "user:profile.md", "me");
    assertThat(load("s2", "notes.txt", Optional.empty())).isNull();
    assertThat(load("s2", "user:profile.md", Optional.empty())).isEqualTo("me");
    assertThat(artifacts.listArtifactKeys("app", "alice", "s2").blockingGet().filenames())
        .containsExactly("user:profile.md");
    assertThat(artifacts.listArtifactKeys("app", "alice", "s1").blockingGet().filenames())
        .containsExactly("notes.txt", "user:profile.md");
    assertThat(artifacts.listArtifactKeys("app", "bob", "s1").blockingGet().filenames()).isEmpty();
  }

  @Test
  void delete_removesEveryVersion() {
    save("s1", "notes.txt", "v0");
    save("s1", "notes.txt", "v1");
    artifacts.deleteArtifact("app", "alice", "s1", "notes.txt").blockingAwait();
    assertThat(load("s1", "notes.txt", Optional.empty())).isNull();
    assertThat(artifacts.listVersions("app", "alice", "s1", "notes.txt").blockingGet()).isEmpty();
    assertThat(save("s1", "notes.txt", "again")).isZero();
  }

  @Test
  void aNameThatLeavesItsSession_isRefused_andNothingIsStored() {
    for (String bad : new String[] {"../other/notes.txt", "user:../x", "/etc/passwd", ""}) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> save("s1", bad, "x"))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Invalid artifact name");
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> load("s1", bad, Optional.empty()))
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(artifacts.listArtifactKeys("app", "alice", "s1").blockingGet().filenames())
        .isEmpty();
  }
}
