package io.github.avgateway.core.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.Verdict;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.smile.SmileMapper;

/**
 * The history message's codec: both encodings round trip every kind of document, a schema-1 body
 * written by the gateways before schema 2 is still read, and what is not a history message of a
 * known schema is rejected with the reason its dead-letter carries.
 */
class HistoryMessagesTest {

  /** A replied document with every kind of field set; also the fixture of other wire tests. */
  static final MessageInfo REPLIED =
      new MessageInfo(
          MessageInfo.idFor("jms", "r1"),
          "r1",
          "c1",
          "jms",
          "client",
          "eicar.com",
          null,
          68,
          "ab",
          Verdict.INFECTED,
          List.of("Eicar-Test-Signature.UNOFFICIAL"),
          null,
          "ClamAV 1.4.6",
          "",
          true,
          Instant.parse("2026-11-25T08:00:00Z"),
          Instant.parse("2026-11-25T08:00:00.003Z"),
          3,
          5,
          "gw-1",
          false,
          Disposition.REPLIED,
          null);

  private static final MessageInfo DEAD =
      new MessageInfo(
          MessageInfo.idFor("amqp", "r2"),
          "r2",
          null,
          "amqp",
          null,
          null,
          null,
          0,
          null,
          Verdict.ERROR,
          List.of(),
          Reason.MALFORMED_REQUEST,
          "",
          "",
          false,
          Instant.parse("2026-11-25T08:00:00Z"),
          null,
          0,
          1,
          "gw-2",
          true,
          Disposition.DEAD_LETTERED,
          DeadLetterReason.MALFORMED_REQUEST);

  @Test
  void documentsSurviveTheRoundTripUnchangedInBothEncodings() {
    List<MessageInfo> documents = List.of(REPLIED, DEAD);
    HistoryMessage decoded = HistoryMessages.decode(HistoryMessages.encode(documents));
    assertThat(decoded.schema()).isEqualTo(HistoryMessages.SCHEMA);
    assertThat(decoded.documents()).containsExactly(REPLIED, DEAD);
    HistoryMessage json = HistoryMessages.decode(HistoryMessages.encodeJson(documents));
    assertThat(json.schema()).isEqualTo(HistoryMessages.JSON_SCHEMA);
    assertThat(json.documents()).containsExactly(REPLIED, DEAD);
  }

  @Test
  void randomDocumentsSurviveTheRoundTrip() {
    RandomRecords records = new RandomRecords(42);
    for (int i = 0; i < 500; i++) {
      HistoryMessage message = records.message();
      assertThat(HistoryMessages.decode(HistoryMessages.encode(message.documents())))
          .as("%s", message)
          .isEqualTo(message);
      assertThat(
              HistoryMessages.decode(HistoryMessages.encodeJson(message.documents())).documents())
          .isEqualTo(message.documents());
    }
  }

  @Test
  void aSchemaOneMessageAsTheGatewaysBeforeSchemaTwoWroteItIsRead() throws IOException {
    // Written by HistoryMessages.encode of commit a486ad1 (the hand-written JSON writer).
    byte[] body;
    try (InputStream in = getClass().getResourceAsStream("/history/schema1-two-documents.json")) {
      body = in.readAllBytes();
    }
    assertThat(new String(body, StandardCharsets.UTF_8))
        .startsWith("{\"schema\":1,\"documents\":[{\"id\":\"jms:r1\"");
    HistoryMessage message = HistoryMessages.decode(body);
    assertThat(message.schema()).isEqualTo(1);
    assertThat(message.documents()).hasSize(2);
    assertThat(message.documents().get(0)).isEqualTo(REPLIED);
    assertThat(message.documents().get(1).receivedAt())
        .isEqualTo(Instant.parse("2026-11-25T08:00:00.123456789Z"));
    assertThat(message.documents().get(1).deadLetterReason())
        .isEqualTo(DeadLetterReason.MALFORMED_REQUEST);
  }

  @Test
  void theBodyIsVersionedSmileAndSmallerThanItsJson() {
    byte[] body = HistoryMessages.encode(List.of(REPLIED));
    assertThat(body).startsWith(':', ')', '\n');
    List<MessageInfo> sixteen = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      sixteen.add(copy(REPLIED, "r" + i));
    }
    int smile = HistoryMessages.encode(sixteen).length;
    int json = HistoryMessages.encodeJson(sixteen).length;
    assertThat(smile).as("Smile %d bytes, JSON %d", smile, json).isLessThan(json / 2);
  }

  @Test
  void fieldsItDoesNotKnowAreIgnored() {
    String json =
        new String(HistoryMessages.encodeJson(List.of(DEAD)), StandardCharsets.UTF_8)
            .replace("{\"schema\":1,", "{\"schema\":1,\"producer\":\"newer\",")
            .replace("\"id\":", "\"shard\":{\"n\":[1]},\"id\":");
    assertThat(HistoryMessages.decode(json.getBytes(StandardCharsets.UTF_8)).documents())
        .containsExactly(DEAD);
    ObjectMapper smile = SmileMapper.builder().build();
    ObjectNode newer = (ObjectNode) smile.readTree(HistoryMessages.encode(List.of(DEAD)));
    newer.put("producer", "newer");
    ((ObjectNode) newer.get("documents").get(0)).put("futureField", 7);
    assertThat(HistoryMessages.decode(smile.writeValueAsBytes(newer)).documents())
        .containsExactly(DEAD);
  }

  @Test
  void documentsBeforeTheSchemaAreReadToo() {
    String json = new String(HistoryMessages.encodeJson(List.of(REPLIED)), StandardCharsets.UTF_8);
    String documents = json.substring(json.indexOf("\"documents\""), json.length() - 1);
    String reordered = "{" + documents + ",\"schema\":1}";
    assertThat(decode(reordered).documents()).containsExactly(REPLIED);
  }

  @Test
  void anUnknownSchemaIsRejectedAsSuch() {
    ObjectMapper smile = SmileMapper.builder().build();
    byte[] smileThree = smile.writeValueAsBytes(Map.of("schema", 3, "documents", List.of()));
    byte[] jsonTwo =
        "{\"schema\":2,\"documents\":[{\"unknown\":1}]}".getBytes(StandardCharsets.UTF_8);
    for (byte[] body : List.of(smileThree, jsonTwo)) {
      assertThatThrownBy(() -> HistoryMessages.decode(body))
          .isInstanceOfSatisfying(
              HistoryMessages.Unreadable.class,
              e -> {
                assertThat(e.reason()).isEqualTo("HISTORY_UNKNOWN_SCHEMA");
                assertThat(e.getMessage()).containsAnyOf("schema 3 in Smile", "schema 2 in JSON");
              });
    }
  }

  @Test
  void bodiesThatAreNotHistoryMessagesAreMalformed() {
    for (String body :
        List.of(
            "not json",
            "",
            "[1,2]",
            "{\"documents\":[]}",
            "{\"schema\":1}",
            "{\"schema\":1,\"documents\":null}",
            "{\"schema\":1,\"documents\":[null]}",
            "{\"schema\":\"1\",\"documents\":[]}",
            "{\"schema\":1,\"documents\":[{\"id\":\"x\"}]}",
            "{\"schema\":1,\"documents\":[{\"id\":\"x\",\"requestId\":\"x\",\"transport\":\"jms\","
                + "\"verdict\":\"MAYBE\",\"receivedAt\":\"2026-11-25T08:00:00Z\","
                + "\"disposition\":\"REPLIED\"}]}")) {
      assertThatThrownBy(() -> decode(body))
          .as(body)
          .isInstanceOfSatisfying(
              HistoryMessages.Unreadable.class,
              e -> assertThat(e.reason()).isEqualTo("HISTORY_MALFORMED"));
    }
    byte[] truncated = HistoryMessages.encode(List.of(REPLIED));
    assertThatThrownBy(() -> HistoryMessages.decode(Arrays.copyOf(truncated, truncated.length / 2)))
        .isInstanceOfSatisfying(
            HistoryMessages.Unreadable.class,
            e -> assertThat(e.reason()).isEqualTo("HISTORY_MALFORMED"));
  }

  private static MessageInfo copy(MessageInfo d, String requestId) {
    return new MessageInfo(
        MessageInfo.idFor(d.transport(), requestId),
        requestId,
        d.correlationId(),
        d.transport(),
        d.clientId(),
        d.filename(),
        d.contentType(),
        d.sizeBytes(),
        d.sha256(),
        d.verdict(),
        d.signatures(),
        d.reason(),
        d.engine(),
        d.signatureVersion(),
        d.cached(),
        d.receivedAt(),
        d.scannedAt(),
        d.scanMillis(),
        d.totalMillis(),
        d.gateway(),
        d.redelivered(),
        d.disposition(),
        d.deadLetterReason());
  }

  private static HistoryMessage decode(String body) {
    return HistoryMessages.decode(body.getBytes(StandardCharsets.UTF_8));
  }
}
