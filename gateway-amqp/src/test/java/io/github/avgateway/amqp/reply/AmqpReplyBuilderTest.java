package io.github.avgateway.amqp.reply;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.amqp.triage.AmqpRequestMapper;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.OriginalHeaders;
import io.github.avgateway.core.wire.ScanResultJson;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;

class AmqpReplyBuilderTest {

  private final AmqpReplyBuilder builder = new AmqpReplyBuilder();

  @Test
  void anInfectedReplyCarriesCorrelationVerdictSignatureAndJson() {
    ScanResult result = result(Verdict.INFECTED, List.of("Sig-A", "Sig-B"), null);
    Message reply = builder.reply(result);

    MessageProperties props = reply.getMessageProperties();
    assertThat(props.getCorrelationId()).isEqualTo("corr-1");
    assertThat(props.getContentType()).isEqualTo("application/json");
    assertThat(props.getDeliveryMode()).isEqualTo(MessageDeliveryMode.PERSISTENT);
    assertThat(props.getHeaders())
        .containsEntry("avVerdict", "INFECTED")
        .containsEntry("avSignature", "Sig-A")
        .doesNotContainKey("avReason");
    assertThat(ScanResultJson.decode(reply.getBody())).isEqualTo(result);
  }

  @Test
  void anUnscannableReplyCarriesItsReasonAndNoSignature() {
    Message reply = builder.reply(result(Verdict.UNSCANNABLE, List.of(), Reason.ENCRYPTED));
    assertThat(reply.getMessageProperties().getHeaders())
        .containsEntry("avVerdict", "UNSCANNABLE")
        .containsEntry("avReason", "ENCRYPTED")
        .doesNotContainKey("avSignature");
  }

  @Test
  void aDeadLetterIsTheRequestWithTheReasonAndTheRecordedId() {
    MessageProperties in = new MessageProperties();
    in.setCorrelationId("corr-1");
    in.setReplyTo("nowhere");
    in.setReceivedUserId("svc");
    in.setExpiration("60000");
    in.setHeader("avFilename", "a.txt");
    in.setHeader("x-death", List.of(Map.of("count", 1L)));
    byte[] body = "payload".getBytes(StandardCharsets.US_ASCII);
    ScanResult result = result(Verdict.CLEAN, List.of(), null);

    Message dead =
        builder.deadLetter(
            new Message(body, in), result, DeadLetterReason.REPLY_UNROUTABLE, "NO_ROUTE");

    MessageProperties out = dead.getMessageProperties();
    assertThat(dead.getBody()).isEqualTo(body);
    assertThat(out.getMessageId()).isEqualTo("req-1");
    assertThat(out.getCorrelationId()).isEqualTo("corr-1");
    assertThat(out.getReplyTo()).isEqualTo("nowhere");
    assertThat(out.getUserId()).as("the broker refuses a foreign user_id").isNull();
    assertThat(out.getExpiration()).as("a dead-letter must not expire").isNull();
    assertThat(out.getHeaders())
        .containsEntry("avReason", "REPLY_UNROUTABLE")
        .containsEntry("avReasonDetail", "NO_ROUTE")
        .containsEntry("avVerdict", "CLEAN")
        .containsEntry("avFilename", "a.txt")
        .doesNotContainKey("x-death");
  }

  @Test
  void headersTheBrokerWouldActOnOrTheGatewaySetsOrTooLongTravelInOriginalHeaders() {
    MessageProperties in = new MessageProperties();
    String longValue = "v".repeat(OriginalHeaders.MAX_VALUE_CHARS + 1);
    in.setHeader("CC", List.of("av.scan.requests"));
    in.setHeader("avReason", "spoofed");
    in.setHeader("long", longValue);
    in.setHeader("tenant", "acme");
    ScanResult result = result(Verdict.ERROR, List.of(), Reason.MALFORMED_REQUEST);

    Message dead =
        builder.deadLetter(
            new Message(new byte[0], in),
            result,
            DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED,
            "x");

    Map<String, Object> headers = dead.getMessageProperties().getHeaders();
    assertThat(headers)
        .containsEntry("tenant", "acme")
        .containsEntry("avReason", "REPLY_DESTINATION_NOT_ALLOWED")
        .doesNotContainKeys("CC", "long");
    Map<String, Object> carried = OriginalHeaders.decode((String) headers.get("avOriginalHeaders"));
    assertThat(carried.keySet()).containsExactlyInAnyOrder("CC", "avReason", "long");
    assertThat(carried).containsEntry("avReason", "spoofed");
    assertThat(carried.get("long"))
        .isEqualTo(
            Map.of(
                "truncated",
                "v".repeat(OriginalHeaders.MAX_VALUE_CHARS),
                "length",
                longValue.length()));
  }

  @Test
  void aBareDeadLetterHasOnlyTheGatewaysHeaders() {
    MessageProperties in = new MessageProperties();
    in.setCorrelationId("corr-1");
    in.setReplyTo("nowhere");
    in.setHeader("tenant", "acme");
    byte[] body = "payload".getBytes(StandardCharsets.US_ASCII);

    Message dead =
        builder.bareDeadLetter(
            new Message(body, in),
            result(Verdict.CLEAN, List.of(), null),
            DeadLetterReason.REPLY_UNROUTABLE,
            "NO_ROUTE");

    MessageProperties out = dead.getMessageProperties();
    assertThat(dead.getBody()).isEqualTo(body);
    assertThat(out.getMessageId()).isEqualTo("req-1");
    assertThat(out.getCorrelationId()).isEqualTo("corr-1");
    assertThat(out.getReplyTo()).isNull();
    assertThat(out.getHeaders().keySet())
        .containsExactlyInAnyOrder("avReason", "avReasonDetail", "avVerdict");
  }

  @Test
  void aForwardIsTheOriginalWithTheGatewaysHeadersReplacingForgedOnes() {
    MessageProperties in = new MessageProperties();
    in.setMessageId("req-1");
    in.setCorrelationId("corr-1");
    in.setContentType("application/pdf");
    in.setContentEncoding("identity");
    in.setReplyTo("av.reply.x");
    in.setPriority(7);
    in.setType("invoice");
    in.setAppId("billing");
    in.setTimestamp(java.util.Date.from(Instant.parse("2026-01-01T00:00:00Z")));
    in.setReceivedUserId("svc");
    in.setExpiration("60000");
    in.setHeader("tenant", "acme");
    in.setHeader("avVerdict", "CLEAN");
    in.setHeader("avSignature", "forged");
    in.setHeader("CC", List.of("elsewhere"));
    in.setHeader(AmqpRequestMapper.DELIVERY_COUNT_HEADER, 2L);
    in.setHeader("x-death", List.of());
    byte[] body = "payload".getBytes(StandardCharsets.US_ASCII);

    Message forward =
        builder.forward(
            new Message(body, in), result(Verdict.INFECTED, List.of("Sig-A", "Sig-B"), null));

    MessageProperties out = forward.getMessageProperties();
    assertThat(forward.getBody()).isEqualTo(body);
    assertThat(out.getMessageId()).isEqualTo("req-1");
    assertThat(out.getCorrelationId()).isEqualTo("corr-1");
    assertThat(out.getContentType()).isEqualTo("application/pdf");
    assertThat(out.getContentEncoding()).isEqualTo("identity");
    assertThat(out.getReplyTo()).isEqualTo("av.reply.x");
    assertThat(out.getPriority()).isEqualTo(7);
    assertThat(out.getType()).isEqualTo("invoice");
    assertThat(out.getAppId()).isEqualTo("billing");
    assertThat(out.getTimestamp()).isEqualTo(in.getTimestamp());
    assertThat(out.getDeliveryMode()).isEqualTo(MessageDeliveryMode.PERSISTENT);
    assertThat(out.getUserId()).isNull();
    assertThat(out.getExpiration()).isNull();
    assertThat(out.getHeaders())
        .containsEntry("tenant", "acme")
        .containsEntry("avVerdict", "INFECTED")
        .containsEntry("avSignature", "Sig-A")
        .containsEntry("avSha256", "ab")
        .containsEntry("avEngine", "FakeAV 1.0/1")
        .containsEntry("avScannedAt", "2026-01-02T03:04:05Z")
        .doesNotContainKeys("CC", AmqpRequestMapper.DELIVERY_COUNT_HEADER, "x-death", "avReason");
  }

  private static ScanResult result(Verdict verdict, List<String> signatures, Reason reason) {
    return new ScanResult(
        "req-1",
        "corr-1",
        verdict,
        signatures,
        reason,
        null,
        "ab",
        7,
        "FakeAV 1.0",
        "1",
        false,
        Instant.parse("2026-01-02T03:04:05Z"),
        3,
        "gw-1");
  }
}
