package io.github.avgateway.amqp.triage;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanRequest;
import io.github.avgateway.core.pipe.Pipe;
import io.github.avgateway.core.transport.DeadLetter;
import io.github.avgateway.core.transport.ReplyRoute;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;

class AmqpRequestTriageTest {

  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");

  private final AmqpRequestTriage triage =
      new AmqpRequestTriage(
          new AmqpRequestMapper(),
          new AmqpReplyDestinationPolicy(Pattern.compile("av\\.reply\\..+"), null, Set.of("in")),
          3,
          Clock.fixed(NOW, ZoneOffset.UTC));

  @Test
  void aCompleteRequestIsScannedAndRoutedToItsReplyTo() throws Exception {
    MessageProperties props = props("m-1");
    props.setCorrelationId("c-1");
    props.setReplyTo("av.reply.x");
    props.setHeader("avFilename", "report.pdf");
    props.setReceivedUserId("svc-billing");
    props.setAppId("billing-app");
    props.setContentType("application/pdf");
    props.setRedelivered(true);

    Triage.Scan scan = (Triage.Scan) triage.triage(new Message(bytes("%PDF"), props));

    assertThat(scan.route()).isEqualTo(new ReplyRoute.To<>("av.reply.x"));
    ScanRequest request = scan.request();
    assertThat(request.requestId()).isEqualTo("m-1");
    assertThat(request.correlationId()).isEqualTo("c-1");
    assertThat(request.transport()).isEqualTo("amqp");
    assertThat(request.filename()).isEqualTo("report.pdf");
    assertThat(request.clientId())
        .as("validated user_id wins over app_id")
        .isEqualTo("svc-billing");
    assertThat(request.contentType()).isEqualTo("application/pdf");
    assertThat(request.receivedAt()).isEqualTo(NOW);
    assertThat(request.redelivered()).isTrue();
    assertThat(request.content().size()).isEqualTo(4);
    try (var in = request.content().open()) {
      assertThat(in.readAllBytes()).isEqualTo(bytes("%PDF"));
    }
  }

  @Test
  void appIdIsTheClientIdWhenThereIsNoUserId() {
    MessageProperties props = props("m-2");
    props.setAppId("billing-app");
    assertThat(triage.triage(new Message(new byte[0], props)).request().clientId())
        .isEqualTo("billing-app");
  }

  @Test
  void anEmptyBodyIsAnEmptyFile() {
    Triage t = triage.triage(new Message(new byte[0], props("m-3")));
    assertThat(t.request().content().size()).isZero();
  }

  @Test
  void aRequestWithoutMessageIdIsRefusedAsMalformedUnderAGeneratedId() {
    MessageProperties props = props(null);
    props.setReplyTo("av.reply.x");
    Triage.Refuse refuse = (Triage.Refuse) triage.triage(new Message(bytes("x"), props));
    assertThat(refuse.deadLetterReason()).isEqualTo(DeadLetterReason.MALFORMED_REQUEST);
    assertThat(refuse.reason()).isEqualTo(Reason.MALFORMED_REQUEST);
    assertThat(refuse.request().requestId()).startsWith(AmqpRequestMapper.GENERATED_ID_PREFIX);
  }

  @Test
  void aRequestWithoutReplyToIsScannedThenDeadLettered() {
    Triage.Scan scan = (Triage.Scan) triage.triage(new Message(bytes("x"), props("m-4")));
    assertThat(scan.route())
        .isInstanceOfSatisfying(
            ReplyRoute.Undeliverable.class,
            u -> assertThat(u.reason()).isEqualTo(DeadLetterReason.NO_REPLY_DESTINATION));
  }

  @Test
  void aReplyToOutsideTheAllowListIsRefusedUnscanned() {
    for (String refused : List.of("orders", "in")) {
      MessageProperties props = props("m-6");
      props.setReplyTo(refused);
      Triage.Refuse refuse = (Triage.Refuse) triage.triage(new Message(bytes("x"), props));
      assertThat(refuse.deadLetterReason())
          .isEqualTo(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED);
      assertThat(refuse.reason()).isEqualTo(Reason.MALFORMED_REQUEST);
      assertThat(refuse.detail()).contains("reply_to");
    }
  }

  @Test
  void aRequestPastTheDeliveryLimitIsRefusedUnscanned() {
    MessageProperties props = props("m-5");
    props.setReplyTo("av.reply.x");
    props.setHeader(AmqpRequestMapper.DELIVERY_COUNT_HEADER, 2L);
    assertThat(triage.triage(new Message(bytes("x"), props))).isInstanceOf(Triage.Scan.class);

    props.setHeader(AmqpRequestMapper.DELIVERY_COUNT_HEADER, 3L);
    Triage.Refuse refuse = (Triage.Refuse) triage.triage(new Message(bytes("x"), props));
    assertThat(refuse.deadLetterReason()).isEqualTo(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED);
    assertThat(refuse.reason()).isEqualTo(Reason.SCAN_FAILED);
    assertThat(refuse.request().requestId()).isEqualTo("m-5");
  }

  private final AmqpRequestTriage pipeTriage =
      AmqpRequestTriage.forPipe(
          new AmqpRequestMapper(),
          new AmqpReplyDestinationPolicy(
              Pattern.compile("av\\.reply\\..+"), "av.reply.default", Set.of()),
          3,
          Clock.fixed(NOW, ZoneOffset.UTC),
          PIPE);

  private static final Pipe PIPE = new Pipe("inbox", "clean", "quarantine", "rejected");

  @Test
  void aPipeMessageIsForwardedWithAReplyOnlyWhenItAsksForAnAllowedOne() {
    Triage.Forward none = (Triage.Forward) pipeTriage.triage(new Message(bytes("x"), props("p-1")));
    assertThat(none.pipe()).isEqualTo(PIPE);
    assertThat(none.replyQueue()).as("no reply_to: no reply, not the default queue").isNull();
    assertThat(none.request().requestId()).isEqualTo("p-1");

    MessageProperties allowed = props("p-2");
    allowed.setReplyTo("av.reply.x");
    assertThat(((Triage.Forward) pipeTriage.triage(new Message(bytes("x"), allowed))).replyQueue())
        .isEqualTo("av.reply.x");

    MessageProperties refused = props("p-3");
    refused.setReplyTo("orders");
    Triage.Forward forward = (Triage.Forward) pipeTriage.triage(new Message(bytes("x"), refused));
    assertThat(forward.replyQueue()).as("refused reply_to: forwarded, no reply").isNull();
  }

  @Test
  void aPipeMessageWithoutMessageIdOrPastTheLimitIsRefusedAsARequestWouldBe() {
    Triage.Refuse malformed =
        (Triage.Refuse) pipeTriage.triage(new Message(bytes("x"), props(null)));
    assertThat(malformed.deadLetterReason()).isEqualTo(DeadLetterReason.MALFORMED_REQUEST);

    MessageProperties props = props("p-4");
    props.setHeader(AmqpRequestMapper.DELIVERY_COUNT_HEADER, 3L);
    Triage.Refuse limit = (Triage.Refuse) pipeTriage.triage(new Message(bytes("x"), props));
    assertThat(limit.deadLetterReason()).isEqualTo(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED);
  }

  @Test
  void theCoreTriageInterfaceDecidesAsTriageDoes() {
    MessageProperties refused = props("m-7");
    refused.setReplyTo("orders");
    assertThat(triage.beforeScan(new Message(bytes("x"), refused)))
        .hasValueSatisfying(letter -> {
          assertThat(letter.reason()).isEqualTo(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED);
          assertThat(letter.detail()).contains("reply_to");
        });
    MessageProperties limit = props("m-8");
    limit.setHeader(AmqpRequestMapper.DELIVERY_COUNT_HEADER, 3L);
    assertThat(triage.beforeScan(new Message(bytes("x"), limit)))
        .map(DeadLetter::reason)
        .contains(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED);
    MessageProperties fine = props("m-9");
    fine.setReplyTo("av.reply.x");
    Message message = new Message(bytes("x"), fine);
    assertThat(triage.beforeScan(message)).isEmpty();
    assertThat(triage.replyRoute(message, "av.reply.default"))
        .isEqualTo(new ReplyRoute.To<>("av.reply.x"));

    Message noReplyTo = new Message(bytes("x"), props("m-10"));
    assertThat(triage.replyRoute(noReplyTo, "av.reply.default"))
        .isEqualTo(new ReplyRoute.To<>("av.reply.default"));
    assertThat(triage.replyRoute(noReplyTo, null))
        .isInstanceOfSatisfying(
            ReplyRoute.Undeliverable.class,
            none -> assertThat(none.reason()).isEqualTo(DeadLetterReason.NO_REPLY_DESTINATION));
    assertThat(pipeTriage.beforeScan(new Message(bytes("x"), refused)))
        .as("a pipe message's reply_to costs it only its reply")
        .isEmpty();
    assertThat(pipeTriage.replyRoute(noReplyTo, "av.reply.default"))
        .as("the default reply queue is for requests only")
        .isInstanceOf(ReplyRoute.Undeliverable.class);
  }

  private static MessageProperties props(String messageId) {
    MessageProperties props = new MessageProperties();
    props.setMessageId(messageId);
    return props;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
