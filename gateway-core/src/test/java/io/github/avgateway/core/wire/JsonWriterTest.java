package io.github.avgateway.core.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The hand-written reply and history bodies against the Jackson mapper they replace: the same bytes
 * for every kind of string, timestamp and absent value the records can hold.
 */
class JsonWriterTest {

  private final RandomRecords random = new RandomRecords(21);

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
      ScanResult result = random.result();
      assertThat(new String(ScanResultJson.encode(result), StandardCharsets.UTF_8))
          .as("%s", result)
          .isEqualTo(new String(ScanResultJson.jackson(result), StandardCharsets.UTF_8));
    }
  }

  @Test
  void historyMessagesAreWrittenByteForByteAsJacksonWritesThem() {
    for (int i = 0; i < 300; i++) {
      HistoryMessage message = random.message();
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
