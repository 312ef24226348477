package io.github.avgateway.core.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The hand-written reply and history bodies against the Jackson mapper they replace: the same bytes
 * for every kind of string, timestamp and absent value the records can hold.
 */
class JsonWriterTest {

  private final Random random = new Random(21);

  /** Strings of every ASCII character, two- and three-byte UTF-8, emoji and now and then null. */
  private String text() {
    if (random.nextInt(8) == 0) {
      return null;
    }
    StringBuilder s = new StringBuilder();
    int n = random.nextInt(24);
    for (int i = 0; i < n; i++) {
      switch (random.nextInt(5)) {
        case 0 -> s.append((char) random.nextInt(0x80));
        case 1 -> s.append((char) (0x80 + random.nextInt(0x780)));
        case 2 -> s.append((char) (0x800 + random.nextInt(0xD000 - 0x800)));
        case 3 -> s.appendCodePoint(0x1F600 + random.nextInt(64));
        default -> s.append("a/b\"c\\d");
      }
    }
    return s.toString();
  }

  /** Whole seconds, milli-, micro- and nanosecond fractions, from 1970 to 9999. */
  private Instant instant() {
    long seconds = (long) (random.nextDouble() * 253_402_300_799L);
    int nanos =
        switch (random.nextInt(4)) {
          case 0 -> 0;
          case 1 -> random.nextInt(1000) * 1_000_000;
          case 2 -> random.nextInt(1_000_000) * 1000;
          default -> random.nextInt(1_000_000_000);
        };
    return Instant.ofEpochSecond(seconds, nanos);
  }

  private <E extends Enum<E>> E oneOf(Class<E> type, boolean nullable) {
    E[] values = type.getEnumConstants();
    return nullable && random.nextBoolean() ? null : values[random.nextInt(values.length)];
  }

  private List<String> signatures() {
    List<String> list = new ArrayList<>();
    for (int i = random.nextInt(3); i > 0; i--) {
      String s = text();
      list.add(s == null ? "Sig" : s);
    }
    return list;
  }

  private ScanResult result() {
    String id = text();
    return new ScanResult(
        id == null ? "id" : id,
        text(),
        oneOf(Verdict.class, false),
        signatures(),
        oneOf(Reason.class, true),
        text(),
        text(),
        random.nextLong(),
        text(),
        text(),
        random.nextBoolean(),
        instant(),
        random.nextInt(),
        text());
  }

  private MessageInfo document() {
    Disposition disposition = oneOf(Disposition.class, false);
    DeadLetterReason reason =
        disposition == Disposition.DEAD_LETTERED ? oneOf(DeadLetterReason.class, false) : null;
    return new MessageInfo(
        "amqp:" + random.nextInt(),
        "r" + random.nextInt(),
        text(),
        "amqp",
        text(),
        text(),
        text(),
        random.nextInt(1 << 30),
        text(),
        oneOf(Verdict.class, false),
        signatures(),
        oneOf(Reason.class, true),
        text(),
        text(),
        random.nextBoolean(),
        instant(),
        random.nextBoolean() ? null : instant(),
        random.nextInt(10_000),
        random.nextInt(10_000),
        text(),
        random.nextBoolean(),
        disposition,
        reason);
  }

  /** A clean reply with only an id and a time, for the edge cases below. */
  private static ScanResult bare(String requestId, Instant scannedAt) {
    return new ScanResult(
        requestId,
        null,
        Verdict.CLEAN,
        List.of(),
        null,
        null,
        null,
        0,
        null,
        null,
        false,
        scannedAt,
        0,
        null);
  }

  @Test
  void repliesAreWrittenByteForByteAsJacksonWritesThem() {
    for (int i = 0; i < 2_000; i++) {
      ScanResult result = result();
      assertThat(new String(ScanResultJson.encode(result), StandardCharsets.UTF_8))
          .as("%s", result)
          .isEqualTo(new String(ScanResultJson.jackson(result), StandardCharsets.UTF_8));
    }
  }

  @Test
  void historyMessagesAreWrittenByteForByteAsJacksonWritesThem() {
    for (int i = 0; i < 300; i++) {
      List<MessageInfo> documents = new ArrayList<>();
      for (int d = random.nextInt(5); d > 0; d--) {
        documents.add(document());
      }
      HistoryMessage message = HistoryMessage.of(documents);
      assertThat(new String(HistoryMessages.encode(message), StandardCharsets.UTF_8))
          .isEqualTo(new String(HistoryMessages.jackson(message), StandardCharsets.UTF_8));
      assertThat(HistoryMessages.decode(HistoryMessages.encode(message))).isEqualTo(message);
    }
  }

  @Test
  void everyAsciiCharacterIsEscapedAsJacksonEscapesIt() {
    StringBuilder all = new StringBuilder();
    for (char c = 0; c < 0x80; c++) {
      all.append(c);
    }
    ScanResult result = bare(all.toString(), Instant.EPOCH);
    assertThat(ScanResultJson.encode(result)).isEqualTo(ScanResultJson.jackson(result));
  }

  @Test
  void aLoneSurrogateIsLeftToJackson() {
    ScanResult result = bare("m\uD83D", Instant.EPOCH);
    assertThat(ScanResultJson.encode(result)).isEqualTo(ScanResultJson.jackson(result));
  }

  @Test
  void timestampsOutsideFourDigitYearsAreWrittenAsJacksonWritesThem() {
    for (Instant at :
        List.of(
            Instant.parse("+12026-01-01T00:00:00Z"), Instant.parse("-0001-12-31T23:59:59.5Z"))) {
      ScanResult result = bare("m", at);
      assertThat(new String(ScanResultJson.encode(result), StandardCharsets.UTF_8))
          .isEqualTo(new String(ScanResultJson.jackson(result), StandardCharsets.UTF_8));
    }
  }
}
