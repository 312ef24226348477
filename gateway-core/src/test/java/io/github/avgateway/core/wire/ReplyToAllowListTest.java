package io.github.avgateway.core.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ReplyToAllowListTest {

  private final ReplyToAllowList list =
      new ReplyToAllowList(Pattern.compile("replies\\.[a-z0-9]+"));

  @Test
  void allowsOnlyNamesThatMatchAsAWhole() {
    assertThat(list.allows("replies.orders")).isTrue();
    assertThat(list.allows("replies.orders")).as("again, from memory").isTrue();
    assertThat(list.allows("replies.orders.evil")).isFalse();
    assertThat(list.allows("xreplies.orders")).isFalse();
    assertThat(list.pattern()).isEqualTo("replies\\.[a-z0-9]+");
  }

  @Test
  void remembersOnlyNamesThatMatched() {
    list.allows("replies.a");
    for (int i = 0; i < 100; i++) {
      list.allows("other." + i);
    }
    assertThat(list.remembered()).isEqualTo(1);
  }

  @Test
  void namesSentAtWillCannotGrowTheMemoryBeyondItsBound() {
    for (int i = 0; i < 5 * ReplyToAllowList.MATCHED_KEPT; i++) {
      assertThat(list.allows("replies.n" + i)).isTrue();
    }
    assertThat(list.remembered()).isLessThanOrEqualTo(ReplyToAllowList.MATCHED_KEPT);
    assertThat(list.allows("replies.n0")).as("an evicted name is matched again").isTrue();
  }
}
