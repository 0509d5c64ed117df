package dev.adk4j.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The scope of a key is its prefix, matched exactly (case and colon included). */
class ScopeTest {

  @Test
  void eachPrefix_givesItsScope() {
    assertThat(Scope.of("app:x")).isEqualTo(Scope.APP);
    assertThat(Scope.of("user:x")).isEqualTo(Scope.USER);
    assertThat(Scope.of("temp:x")).isEqualTo(Scope.TEMP);
    assertThat(Scope.of("secret:x")).isEqualTo(Scope.SECRET);
    assertThat(Scope.of("x")).isEqualTo(Scope.SESSION);
  }

  @Test
  void keysThatOnlyLookLikeAPrefix_areSessionKeys() {
    for (String key :
        new String[] {
          "apple", "app", "ap:x", "App:x", "users:x", "user", "u", "tempo", "temp-x", "secrets",
          "s", "a", "t", ":x", "x:app:y", "", " user:x"
        }) {
      assertThat(Scope.of(key)).as(key).isEqualTo(Scope.SESSION);
    }
  }

  @Test
  void aBarePrefix_isNotAValidKey() {
    for (String key : new String[] {"app:", "user:", "temp:", "secret:"}) {
      assertThatThrownBy(() -> Scope.checkKey(key))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(key);
    }
    assertThat(Scope.checkKey("app:x")).isEqualTo("app:x");
  }
}
