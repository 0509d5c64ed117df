package dev.adk4j.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link AppendOnlyList}: versions that share elements and never see each other's additions. */
class AppendOnlyListTest {

  @Test
  void eachVersionKeepsItsElements_whateverIsAddedToAnother() {
    AppendOnlyList<String> empty = AppendOnlyList.of();
    AppendOnlyList<String> ab = empty.plus(List.of("a", "b"));
    AppendOnlyList<String> abc = ab.plus("c");
    // ab is extended again after abc: a branch, which must not overwrite abc's "c"
    AppendOnlyList<String> abx = ab.plus("x");
    List<String> many = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      many.add("n" + i);
    }
    AppendOnlyList<String> abcMany = abc.plus(many);

    assertThat(empty).isEmpty();
    assertThat(ab).containsExactly("a", "b");
    assertThat(abc).containsExactly("a", "b", "c");
    assertThat(abx).containsExactly("a", "b", "x");
    assertThat(abcMany).hasSize(103).startsWith("a", "b", "c").endsWith("n99");
    assertThat(abc.plus(List.of())).isSameAs(abc);
    assertThat(abcMany)
        .isEqualTo(new ArrayList<>(abcMany))
        .hasSameHashCodeAs(new ArrayList<>(abcMany));
  }

  @Test
  void isImmutable_andRefusesNullElements() {
    AppendOnlyList<String> a = AppendOnlyList.<String>of().plus("a");
    assertThatThrownBy(() -> a.add("b")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> a.set(0, "b")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> a.get(1)).isInstanceOf(IndexOutOfBoundsException.class);
    List<String> withNull = new ArrayList<>();
    withNull.add(null);
    assertThatThrownBy(() -> a.plus(withNull)).isInstanceOf(NullPointerException.class);
    assertThat(a).containsExactly("a");
  }
}
