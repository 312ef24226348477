package io.github.avgateway.load.harness;

import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.HistoryMessages;
import io.github.avgateway.core.wire.ScanResultJson;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The bodies the echo servers send: a real CLEAN reply's JSON, so replies weigh the same, and real
 * history messages, so an echo with history publishes what a gateway's batch does.
 */
final class EchoReply {

  /** The history queue of an echo with history, bounded as the gateway's own. */
  static final String HISTORY_QUEUE = "av.perf.echo.history";

  /** The largest batch an echo takes, and so the most documents in one history message. */
  static final int MAX_BATCH = 64;

  static final byte[] BODY =
      ScanResultJson.encode(
          new ScanResult(
              "00000000-0000-0000-0000-000000000000",
              "00000000-0000-0000-0000-000000000000",
              Verdict.CLEAN,
              List.of(),
              null,
              null,
              "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
              1024,
              "ClamAV 1.4.6",
              "",
              false,
              Instant.parse("2026-01-01T00:00:00Z"),
              1,
              "echo"));

  /** A history message of {@code documents} CLEAN 1 KiB documents, by index (1 to 64). */
  private static final List<byte[]> HISTORY =
      IntStream.rangeClosed(0, MAX_BATCH).mapToObj(EchoReply::encodeHistory).toList();

  private EchoReply() {}

  /** The body of a history message with {@code documents} documents, as a gateway's batch sends. */
  static byte[] history(int documents) {
    return HISTORY.get(documents);
  }

  private static byte[] encodeHistory(int documents) {
    Instant at = Instant.parse("2026-01-01T00:00:00Z");
    MessageInfo document =
        new MessageInfo(
            "amqp:00000000-0000-0000-0000-000000000000",
            "00000000-0000-0000-0000-000000000000",
            "00000000-0000-0000-0000-000000000000",
            "amqp",
            "perf-harness",
            null,
            "application/octet-stream",
            1024,
            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            Verdict.CLEAN,
            List.of(),
            null,
            "ClamAV 1.4.6",
            "1",
            false,
            at,
            at,
            1,
            2,
            "echo",
            false,
            Disposition.REPLIED,
            null);
    return HistoryMessages.encode(Collections.nCopies(documents, document));
  }
}
