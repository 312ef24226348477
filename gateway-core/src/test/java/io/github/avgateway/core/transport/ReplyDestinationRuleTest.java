package io.github.avgateway.core.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ReplyDestinationRuleTest {

  private final ReplyDestinationRule rule =
      new ReplyDestinationRule(
          Pattern.compile("replies\\..+"), Set.of("av.scan.requests", "replies.loop"));

  @Test
  void aNameMatchingThePatternAsAWholeIsAllowed() {
    assertThat(rule.refusal("reply_to", "replies.billing")).isEmpty();
  }

  @Test
  void aNameMatchingOnlyInPartIsRefusedWithThePattern() {
    assertThat(rule.refusal("JMSReplyTo", "x.replies.billing"))
        .contains("JMSReplyTo does not match the allowed pattern replies\\..+");
  }

  @Test
  void theGatewaysOwnQueuesAreRefusedEvenWhenThePatternMatches() {
    assertThat(rule.refusal("reply_to", "replies.loop"))
        .contains("reply_to names one of the gateway's own queues");
    assertThat(rule.refusal("reply_to", "av.scan.requests"))
        .contains("reply_to names one of the gateway's own queues");
  }
}
