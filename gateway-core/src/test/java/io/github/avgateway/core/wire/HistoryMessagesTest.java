package io.github.avgateway.core.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.Verdict;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

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
  void documentsSurviveTheRoundTripUnchanged() {
    HistoryMessage decoded = HistoryMessages.decode(HistoryMessages.encode(List.of(REPLIED, DEAD)));
    assertThat(decoded.schema()).isEqualTo(HistoryMessages.SCHEMA);
    assertThat(decoded.documents()).containsExactly(REPLIED, DEAD);
  }

  @Test
  void theBodyIsVersionedJsonWithoutPayload() {
    String json = new String(HistoryMessages.encode(List.of(REPLIED)), StandardCharsets.UTF_8);
    assertThat(json).startsWith("{\"schema\":1,\"documents\":[{\"id\":\"jms:r1\"");
    assertThat(json).contains("\"receivedAt\":\"2026-11-25T08:00:00Z\"");
  }

  @Test
  void fieldsItDoesNotKnowAreIgnored() {
    String json =
        new String(HistoryMessages.encode(List.of(DEAD)), StandardCharsets.UTF_8)
            .replace("{\"schema\":1,", "{\"schema\":1,\"producer\":\"newer\",");
    assertThat(HistoryMessages.decode(json.getBytes(StandardCharsets.UTF_8)).documents())
        .containsExactly(DEAD);
  }

  @Test
  void anUnknownSchemaIsRejectedAsSuch() {
    assertThatThrownBy(() -> decode("{\"schema\":2,\"documents\":[]}"))
        .isInstanceOfSatisfying(
            HistoryMessages.Unreadable.class,
            e -> {
              assertThat(e.reason()).isEqualTo("HISTORY_UNKNOWN_SCHEMA");
              assertThat(e.getMessage()).contains("schema 2");
            });
  }

  @Test
  void bodiesThatAreNotHistoryMessagesAreMalformed() {
    for (String body :
        List.of(
            "not json",
            "[1,2]",
            "{\"documents\":[]}",
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
  }

  private static HistoryMessage decode(String body) {
    return HistoryMessages.decode(body.getBytes(StandardCharsets.UTF_8));
  }
}
