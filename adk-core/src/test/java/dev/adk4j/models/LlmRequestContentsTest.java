package dev.adk4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import dev.adk4j.internal.AppendOnlyList;
import dev.adk4j.testsupport.Contents;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A request's contents are immutable: a history given as an {@link AppendOnlyList} is shared, not
 * copied, and a builder that adds to shared contents adds to its own copy.
 */
class LlmRequestContentsTest {

  @Test
  void sharedHistoryIsNotCopied_andAddingToABuilderChangesNoRequest() {
    AppendOnlyList<Content> history =
        AppendOnlyList.<Content>of().plus(List.of(Contents.user("one"), Contents.model("two")));
    LlmRequest first = LlmRequest.builder().contents(history).build();
    assertThat(first.contents()).isSameAs(history);

    LlmRequest.Builder more = first.toBuilder().addContent(Contents.user("three"));
    LlmRequest second = more.build();
    more.addContent(Contents.user("four"));
    LlmRequest third = more.build();

    assertThat(first.contents()).hasSize(2);
    assertThat(history).hasSize(2);
    assertThat(second.contents()).hasSize(3);
    assertThat(third.contents()).hasSize(4);
    assertThat(first.toBuilder().build().contents()).isSameAs(first.contents());
  }

  @Test
  void aPlainListIsCopied() {
    List<Content> mine = new ArrayList<>(List.of(Contents.user("one")));
    LlmRequest request = LlmRequest.builder().contents(mine).build();
    mine.add(Contents.user("two"));
    assertThat(request.contents()).hasSize(1);
  }
}
