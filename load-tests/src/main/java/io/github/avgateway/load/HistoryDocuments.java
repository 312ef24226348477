package io.github.avgateway.load;

import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * History documents as a busy AMQP gateway writes them, for the benchmarks of the history message:
 * each with its own request id, correlation id, file name and hash (what no encoding can share
 * between documents), the rest as one gateway's batches repeat it, timestamps to the nanosecond.
 */
public final class HistoryDocuments {

  private HistoryDocuments() {}

  /** {@code count} documents received from {@code at} on, one every 1,337 ns. */
  public static List<MessageInfo> batch(int count, Instant at) {
    List<MessageInfo> documents = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      documents.add(document(i, at.plusNanos(i * 1_337L)));
    }
    return documents;
  }

  private static MessageInfo document(int i, Instant at) {
    String requestId = String.format(Locale.ROOT, "9f0c6d1e-4a53-4c55-a3a8-%012d", i);
    return new MessageInfo(
        MessageInfo.idFor("amqp", requestId),
        requestId,
        "corr-" + i,
        "amqp",
        "uploads",
        "invoice-" + i + ".pdf",
        "application/pdf",
        1024,
        String.format(Locale.ROOT, "%064x", i * 7919L + 1),
        Verdict.CLEAN,
        List.of(),
        null,
        "ClamAV 1.4.6",
        "27451",
        false,
        at,
        at.plusNanos(811_000),
        1,
        3,
        "gw-1",
        false,
        Disposition.REPLIED,
        null);
  }
}
