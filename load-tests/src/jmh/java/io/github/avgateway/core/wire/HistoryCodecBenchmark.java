package io.github.avgateway.core.wire;

import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The gateway's bodies through Jackson: a reply (JSON, once per request) and a history message of
 * {@code documents} documents (Smile, once per history message), written and read back; and a
 * schema-1 JSON message read, as an indexer reads what an older gateway left on the queue.
 *
 * <p>Pitfalls avoided: the records and the bodies to read are built in setup (no UUIDs or clocks
 * timed); every result is returned to JMH; the mappers' first-use introspection falls in warm-up;
 * timestamps carry nanoseconds, as {@code Clock.systemUTC()} gives them; each document has its own
 * ids, file name and hash, so Smile's shared values cover only what real batches repeat.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HistoryCodecBenchmark {

  @Param({"16", "128"})
  public int documents;

  private ScanResult reply;
  private List<MessageInfo> history;
  private byte[] smileBody;
  private byte[] jsonBody;

  @Setup
  public void setUp() {
    Instant at = Instant.parse("2026-11-25T21:04:05.123456789Z");
    reply =
        new ScanResult(
            "9f0c6d1e-4a53-4c55-a3a8-1f2b3c4d5e6f",
            "corr-000042",
            Verdict.CLEAN,
            List.of(),
            null,
            null,
            "5f70bf18a086007016e948b04aed3b82103a36bea41755b6cddfaf10ace3c6ef",
            1024,
            "ClamAV 1.4.6",
            "27451",
            false,
            at,
            1,
            "gw-1");
    history = new ArrayList<>();
    for (int i = 0; i < documents; i++) {
      history.add(document(i, at.plusNanos(i * 1_337L)));
    }
    smileBody = HistoryMessages.encode(history);
    jsonBody = HistoryMessages.encodeJson(history);
  }

  private static MessageInfo document(int i, Instant at) {
    String requestId = String.format("9f0c6d1e-4a53-4c55-a3a8-%012d", i);
    return new MessageInfo(
        MessageInfo.idFor("amqp", requestId),
        requestId,
        "corr-" + i,
        "amqp",
        "uploads",
        "file-" + i + ".pdf",
        "application/pdf",
        1024,
        String.format("%064x", i * 7919L),
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

  @Benchmark
  public byte[] replyEncode() {
    return ScanResultJson.encode(reply);
  }

  @Benchmark
  public byte[] historyEncode() {
    return HistoryMessages.encode(history);
  }

  @Benchmark
  public HistoryMessage historyDecode() {
    return HistoryMessages.decode(smileBody);
  }

  @Benchmark
  public HistoryMessage historyDecodeSchema1Json() {
    return HistoryMessages.decode(jsonBody);
  }
}
