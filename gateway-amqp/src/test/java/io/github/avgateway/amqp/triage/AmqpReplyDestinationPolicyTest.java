package io.github.avgateway.amqp.triage;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.amqp.AmqpGatewayPropertiesTest;
import io.github.avgateway.amqp.config.AmqpGatewayProperties;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.transport.ReplyRoute;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class AmqpReplyDestinationPolicyTest {

  private static final Pattern DEFAULT_PATTERN =
      AmqpGatewayPropertiesTest.defaults().compiledReplyToPattern();
  private static final Set<String> OWN = Set.of("av.scan.requests", "av.scan.dead-letters");

  private final AmqpReplyDestinationPolicy noDefault =
      new AmqpReplyDestinationPolicy(DEFAULT_PATTERN, null, OWN);

  @Test
  void directReplyToAndAllowedQueuesAreAccepted() {
    assertThat(noDefault.route("amq.rabbitmq.reply-to.g1h2AA5yZXBseUAxNjE3MzIzNTA"))
        .isEqualTo(new ReplyRoute.To<>("amq.rabbitmq.reply-to.g1h2AA5yZXBseUAxNjE3MzIzNTA"));
    assertThat(noDefault.route("av.reply.billing"))
        .isEqualTo(new ReplyRoute.To<>("av.reply.billing"));
  }

  @Test
  void serverNamedQueuesOfTheRpcPatternAreAcceptedByDefault() {
    // queue_declare(queue='') answers a name like this; clients may not declare "amq." names
    assertThat(noDefault.route("amq.gen-JzTY20BRgKO-HjmUJj0wLg"))
        .isEqualTo(new ReplyRoute.To<>("amq.gen-JzTY20BRgKO-HjmUJj0wLg"));
    assertThat(reasonOf(noDefault.route("amq.gen-")))
        .isEqualTo(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED);
    assertThat(reasonOf(noDefault.route("amq.direct")))
        .isEqualTo(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED);
  }

  @Test
  void missingReplyToGoesToTheDefaultQueueWhenOneIsConfigured() {
    AmqpReplyDestinationPolicy withDefault =
        new AmqpReplyDestinationPolicy(DEFAULT_PATTERN, "ops.verdicts", OWN);
    assertThat(withDefault.route(null)).isEqualTo(new ReplyRoute.To<>("ops.verdicts"));
    assertThat(withDefault.route("  ")).isEqualTo(new ReplyRoute.To<>("ops.verdicts"));
  }

  @Test
  void missingReplyToWithoutDefaultIsUndeliverable() {
    assertThat(reasonOf(noDefault.route(null))).isEqualTo(DeadLetterReason.NO_REPLY_DESTINATION);
  }

  @Test
  void replyToOutsideThePatternIsNotAllowed() {
    assertThat(reasonOf(noDefault.route("orders")))
        .isEqualTo(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED);
    // the pattern must match the whole value, not a part of it
    assertThat(reasonOf(noDefault.route("x.av.reply.billing")))
        .isEqualTo(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED);
    assertThat(reasonOf(noDefault.route("amq.rabbitmq.reply-to")))
        .isEqualTo(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED);
  }

  @Test
  void theGatewaysOwnQueuesAreNeverAllowedEvenIfThePatternMatches() {
    AmqpReplyDestinationPolicy anything =
        new AmqpReplyDestinationPolicy(Pattern.compile(".*"), null, OWN);
    assertThat(reasonOf(anything.route("av.scan.requests")))
        .isEqualTo(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED);
    assertThat(reasonOf(anything.route("av.scan.dead-letters")))
        .isEqualTo(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED);
    assertThat(anything.route("orders")).isEqualTo(new ReplyRoute.To<>("orders"));
  }

  /** The names it remembers (more than it keeps, so it forgets some) never change an answer. */
  @Test
  void rememberedNamesAnswerAsThePatternDoes() {
    AmqpReplyDestinationPolicy policy =
        new AmqpReplyDestinationPolicy(
            Pattern.compile("replies\\.[0-9]+|av\\.scan\\..*"), null, OWN);
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < 3_000; i++) {
        assertThat(policy.route("replies." + i)).isEqualTo(new ReplyRoute.To<>("replies." + i));
        assertThat(reasonOf(policy.route("replies." + i + "x")))
            .isEqualTo(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED);
        assertThat(reasonOf(policy.route("av.scan.requests")))
            .isEqualTo(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED);
      }
    }
  }

  @Test
  void theDefaultPropertyPatternIsTheOneTestedHere() {
    AmqpGatewayProperties defaults = AmqpGatewayPropertiesTest.defaults();
    assertThat(defaults.compiledReplyToPattern().pattern()).isEqualTo(DEFAULT_PATTERN.pattern());
  }

  private static DeadLetterReason reasonOf(ReplyRoute<String> route) {
    assertThat(route).isInstanceOf(ReplyRoute.Undeliverable.class);
    return ((ReplyRoute.Undeliverable<String>) route).reason();
  }
}
