package io.github.avgateway.amqp;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.amqp.testing.GatewayItSupport;
import io.github.avgateway.amqp.testing.QueueInbox;
import io.github.avgateway.amqp.testing.TestGateway;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.HistoryMessages;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The history stream on the real RabbitMQ: requests' documents reach the store through the stream
 * and the gateway's indexer, written as schema 2 (Smile); a schema-1 JSON message an older gateway
 * left on the queue is indexed after the upgrade; a malformed and an unknown-schema history message
 * are dead-lettered to the history dead-letter queue with {@code avReason}, once each, and the
 * stream goes on.
 */
@SpringBootTest(classes = TestGateway.class)
class AmqpHistoryStreamIT extends GatewayItSupport {

  private static final Names NAMES = Names.unique("historystream");

  @DynamicPropertySource
  static void gateway(DynamicPropertyRegistry registry) {
    register(registry, NAMES);
  }

  @Override
  protected Names names() {
    return NAMES;
  }

  @Test
  void aRequestsDocumentTravelsThroughTheStreamIntoTheStore() {
    String id = send(bytes("hello"), NAMES.replies(), null);
    replies.await(QueueInbox.correlationId(id), WAIT);
    assertThat(awaitDocument(id).disposition()).isEqualTo(Disposition.REPLIED);
  }

  @Test
  void aSchemaOneJsonMessageAnOlderGatewayLeftOnTheQueueIsIndexed() {
    MessageInfo old = legacyDocument("left-by-an-older-gateway-" + UUID.randomUUID());
    MessageProperties props = new MessageProperties();
    props.setContentType(HistoryMessages.JSON_CONTENT_TYPE);
    props.setHeader("avHistorySchema", HistoryMessages.JSON_SCHEMA);
    props.setHeader("avDocuments", 1);
    byte[] body = HistoryMessages.encodeJson(List.of(old));
    assertThat(new String(body, StandardCharsets.UTF_8)).startsWith("{\"schema\":1,");
    rabbit.send("", NAMES.history(), new Message(body, props));

    assertThat(awaitDocument(old.requestId())).isEqualTo(old);
  }

  @Test
  void theGatewayWritesSchemaTwoInSmile() {
    String id = send(bytes("smile"), NAMES.replies(), null);
    replies.await(QueueInbox.correlationId(id), WAIT);
    indexer.stop();
    try {
      String other = send(bytes("smile, unindexed"), NAMES.replies(), null);
      replies.await(QueueInbox.correlationId(other), WAIT);
      Message message = new QueueInbox(rabbit, NAMES.history()).await(m -> true, WAIT);
      assertThat(message.getMessageProperties().getContentType())
          .isEqualTo(HistoryMessages.CONTENT_TYPE);
      assertThat(message.getMessageProperties().getHeaders())
          .containsEntry("avHistorySchema", HistoryMessages.SCHEMA);
      assertThat(message.getBody()).startsWith(':', ')', '\n');
      assertThat(HistoryMessages.decode(message.getBody()).documents())
          .extracting(MessageInfo::requestId)
          .contains(other);
    } finally {
      indexer.start();
    }
  }

  private static MessageInfo legacyDocument(String requestId) {
    Instant at = Instant.parse("2026-11-25T08:00:00.123456Z");
    return new MessageInfo(
        MessageInfo.idFor("amqp", requestId),
        requestId,
        "c-" + requestId,
        "amqp",
        "uploads",
        "old.pdf",
        "application/pdf",
        1024,
        "ab",
        Verdict.CLEAN,
        List.of(),
        null,
        "ClamAV 1.4.6",
        "27451",
        false,
        at,
        at.plusMillis(2),
        2,
        3,
        "gw-old",
        false,
        Disposition.REPLIED,
        null);
  }

  @Test
  void unreadableHistoryMessagesAreDeadLetteredWithTheirReasonAndTheStreamGoesOn() {
    publishHistory("not json at all");
    publishHistory("{\"schema\":99,\"documents\":[]}");
    publishHistory("{\"schema\":1,\"documents\":[{\"id\":\"x\"}]}");
    String id = send(bytes("after the bad ones"), NAMES.replies(), null);

    QueueInbox dead = new QueueInbox(rabbit, NAMES.historyDlq());
    Message unknown = dead.await(reason("HISTORY_UNKNOWN_SCHEMA"), WAIT);
    assertThat(unknown.getMessageProperties().getHeaders()).containsKey("avReasonDetail");
    assertThat(new String(unknown.getBody(), StandardCharsets.UTF_8)).contains("\"schema\":99");
    dead.await(reason("HISTORY_MALFORMED").and(body("not json at all")), WAIT);
    dead.await(reason("HISTORY_MALFORMED").and(body("\"id\":\"x\"")), WAIT);
    awaitDocument(id);
    assertThat(dead.drain()).as("each dead-lettered once, never retried").hasSize(3);
  }

  private void publishHistory(String body) {
    MessageProperties props = new MessageProperties();
    props.setContentType(HistoryMessages.CONTENT_TYPE);
    rabbit.send("", NAMES.history(), new Message(body.getBytes(StandardCharsets.UTF_8), props));
  }

  private static Predicate<Message> reason(String reason) {
    return m ->
        reason.equals(String.valueOf(m.getMessageProperties().getHeaders().get("avReason")));
  }

  private static Predicate<Message> body(String part) {
    return m -> new String(m.getBody(), StandardCharsets.UTF_8).contains(part);
  }
}
