package io.github.avgateway.amqp;

import static io.github.avgateway.amqp.testing.QueueInbox.correlationId;
import static io.github.avgateway.amqp.testing.QueueInbox.messageId;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.amqp.testing.GatewayItSupport;
import io.github.avgateway.amqp.testing.TestGateway;
import io.github.avgateway.amqp.triage.AmqpRequestMapper;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.OriginalHeaders;
import io.github.avgateway.core.wire.WireNames;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Requests the gateway cannot answer, against the real RabbitMQ: each is dead-lettered with its
 * {@code avReason} and recorded in history, and the consumers keep serving afterwards.
 */
@SpringBootTest(classes = TestGateway.class)
class AmqpBadInputIT extends GatewayItSupport {

  private static final Names NAMES = Names.unique("badinput");
  private static final int DELIVERY_LIMIT = 3;

  @DynamicPropertySource
  static void gateway(DynamicPropertyRegistry registry) {
    register(registry, NAMES);
    registry.add("avgateway.amqp.delivery-limit", () -> DELIVERY_LIMIT);
  }

  @Override
  protected Names names() {
    return NAMES;
  }

  @Test
  void noMessageIdIsDeadLetteredAsMalformedAndRecorded() {
    String corr = "no-id-" + UUID.randomUUID();
    MessageProperties props = new MessageProperties();
    props.setCorrelationId(corr);
    props.setReplyTo(NAMES.replies());
    rabbit.send("", NAMES.requests(), new Message(bytes("x"), props));

    Message dead = deadLetters.await(correlationId(corr), WAIT);
    assertDeadLetter(dead, DeadLetterReason.MALFORMED_REQUEST);
    String recordedId = dead.getMessageProperties().getMessageId();
    assertThat(recordedId).startsWith(AmqpRequestMapper.GENERATED_ID_PREFIX);
    assertThat(awaitDocument(recordedId).verdict()).isEqualTo(Verdict.ERROR);
    assertThat(replies.matching(correlationId(corr))).isEmpty();
  }

  @Test
  void noReplyToIsDeadLetteredAndRecorded() {
    String id = send(bytes("orphan"), null, null);
    assertDeadLetter(deadLetters.await(messageId(id), WAIT), DeadLetterReason.NO_REPLY_DESTINATION);
    assertThat(awaitDocument(id).verdict()).isEqualTo(Verdict.CLEAN);
  }

  @Test
  void replyToOutsideTheAllowListIsDeadLetteredOnceUnscannedWithTheCallersHeaders() {
    int scansBefore = scanner.scans();
    String id = "refused-" + UUID.randomUUID();
    MessageProperties props = new MessageProperties();
    props.setMessageId(id);
    props.setReplyTo("not-allowed." + UUID.randomUUID());
    props.setHeader("destination-type", "ANYCAST");
    props.setHeader("avReason", "spoofed by the caller");
    props.setHeader("CC", List.of("not-allowed.copy"));
    rabbit.send("", NAMES.requests(), new Message(bytes("x"), props));

    Message dead = deadLetters.await(messageId(id), WAIT);
    assertDeadLetter(dead, DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED);
    Map<String, Object> headers = dead.getMessageProperties().getHeaders();
    assertThat(headers).containsEntry("destination-type", "ANYCAST").doesNotContainKey("CC");
    Map<String, Object> original =
        OriginalHeaders.decode(String.valueOf(headers.get(WireNames.ORIGINAL_HEADERS)));
    assertThat(original).containsEntry("avReason", "spoofed by the caller");
    assertThat(original.get("CC"))
        .asInstanceOf(InstanceOfAssertFactories.MAP)
        .containsEntry("text", "[not-allowed.copy]");
    MessageInfo doc = awaitDocument(id);
    assertThat(doc.deadLetterReason()).isEqualTo(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED);
    assertThat(doc.verdict()).isEqualTo(Verdict.ERROR);
    assertThat(doc.redelivered()).isFalse();
    assertThat(history.calls()).filteredOn(info -> info.requestId().equals(id)).hasSize(1);
    assertThat(scanner.scans()).as("refused before the scan").isEqualTo(scansBefore);
  }

  @Test
  void anUnroutableReplyIsDeadLetteredAndTheConsumerKeepsServing() {
    String lost = send(bytes("x"), "av.reply.no-such-queue." + UUID.randomUUID(), null);
    assertDeadLetter(deadLetters.await(messageId(lost), WAIT), DeadLetterReason.REPLY_UNROUTABLE);
    assertThat(awaitDocument(lost).deadLetterReason()).isEqualTo(DeadLetterReason.REPLY_UNROUTABLE);

    for (int i = 0; i < 5; i++) {
      String ok = send(bytes("after " + i), NAMES.replies(), null);
      replies.await(correlationId(ok), WAIT);
    }
    assertThat(admin.getQueueInfo(NAMES.requests()).getConsumerCount()).isEqualTo(2);
  }

  @Test
  void aRequestThatKeepsFailingIsDeadLetteredAtTheDeliveryLimit() {
    String id = "poison-" + UUID.randomUUID();
    int scansBefore = scanner.scans();
    scanner.throwNext(Integer.MAX_VALUE);
    try {
      send(id, bytes("poison"), NAMES.replies(), null);
      Message dead = deadLetters.await(messageId(id), WAIT);
      assertDeadLetter(dead, DeadLetterReason.DELIVERY_LIMIT_EXCEEDED);
      assertThat(scanner.scans() - scansBefore)
          .as("one scan per delivery up to the limit, none past it")
          .isEqualTo(DELIVERY_LIMIT);
    } finally {
      scanner.throwNext(0);
    }
    MessageInfo doc = awaitDocument(id);
    assertThat(doc.deadLetterReason()).isEqualTo(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED);
    assertThat(doc.disposition()).isEqualTo(Disposition.DEAD_LETTERED);
    assertThat(doc.redelivered()).isTrue();
    assertThat(replies.matching(correlationId(id))).isEmpty();
    assertThat(history.calls())
        .filteredOn(info -> info.requestId().equals(id))
        .as("only the delivery past the limit has a document")
        .hasSize(1);
  }
}
