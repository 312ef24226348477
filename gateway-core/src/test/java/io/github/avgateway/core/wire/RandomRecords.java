package io.github.avgateway.core.wire;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random replies and history documents for the wire tests: every kind of string, timestamp and
 * absent value the records can hold. Seeded, so a failure repeats.
 */
final class RandomRecords {

  private final Random random;

  RandomRecords(long seed) {
    this.random = new Random(seed);
  }

  /** Random history messages of up to four documents. */
  HistoryMessage message() {
    List<MessageInfo> documents = new ArrayList<>();
    for (int d = random.nextInt(5); d > 0; d--) {
      documents.add(document());
    }
    return HistoryMessage.of(documents);
  }

  /** Strings of every ASCII character, two- and three-byte UTF-8, emoji and now and then null. */
  String text() {
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
  Instant instant() {
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

  ScanResult result() {
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

  MessageInfo document() {
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
        reason,
        text());
  }
}
