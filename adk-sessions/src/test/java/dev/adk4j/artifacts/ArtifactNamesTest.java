package dev.adk4j.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.internal.artifacts.ArtifactNames;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ArtifactNamesTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "notes.txt",
        "user:notes.txt",
        "reports/2026/q1 final.md",
        "user:reports/q1.md",
        ".hidden",
        "a..b",
        "résumé.pdf",
        "x:y"
      })
  void valid(String name) {
    assertThat(ArtifactNames.isValid(name)).isTrue();
    assertThat(ArtifactNames.check(name)).isEqualTo(name);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "../x|'..' path segment",
        "a/../../x|'..' path segment",
        "user:../x|'..' path segment",
        "./x|'.' path segment",
        "a/.|'.' path segment",
        "/etc/passwd|starts with '/'",
        "a//b|empty path segment",
        "a/|empty path segment",
        "a\\b|backslash",
        "user:|no file name",
      })
  void invalid(String name, String reason) {
    assertThat(ArtifactNames.isValid(name)).isFalse();
    assertThatThrownBy(() -> ArtifactNames.check(name))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + name + "'")
        .hasMessageContaining(reason);
  }

  @org.junit.jupiter.api.Test
  void nullEmptyControlCharactersAndOverlongNames_areInvalid() {
    assertThat(ArtifactNames.isValid(null)).isFalse();
    assertThat(ArtifactNames.isValid("")).isFalse();
    assertThat(ArtifactNames.isValid("a\u0000b")).isFalse();
    assertThatThrownBy(() -> ArtifactNames.check("a\nb")).hasMessageContaining("U+000A");
    assertThat(ArtifactNames.isValid("x".repeat(ArtifactNames.MAX_LENGTH))).isTrue();
    assertThat(ArtifactNames.isValid("x".repeat(ArtifactNames.MAX_LENGTH + 1))).isFalse();
  }
}
