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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The gateway's two JSON bodies per batch written by {@link JsonWriter} against the Jackson mapper
 * it replaced: a reply (once per request) and a history message of 16 documents (once per batch).
 *
 * <p>Pitfalls avoided: the records are built in setup (no UUIDs or clocks timed); both sides return
 * their bytes to JMH; the mapper's first-use introspection falls in warm-up; timestamps carry
 * nanoseconds, as {@code Clock.systemUTC()} gives them, so the nine-digit fraction is timed.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class WireJsonBenchmark {

  private ScanResult reply;
  private HistoryMessage history;

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
    List<MessageInfo> documents = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      documents.add(
          new MessageInfo(
              "amqp:request-" + i,
              "request-" + i,
              "corr-" + i,
              "amqp",
              "uploads",
              "file-" + i + ".pdf",
              "application/pdf",
              1024,
              reply.sha256(),
              Verdict.CLEAN,
              List.of(),
              null,
              "ClamAV 1.4.6",
              "27451",
              false,
              at,
              at,
              1,
              3,
              "gw-1",
              false,
              Disposition.REPLIED,
              null));
    }
    history = HistoryMessage.of(documents);
  }

  @Benchmark
  public byte[] replyWriter() {
    return ScanResultJson.encode(reply);
  }

  @Benchmark
  public byte[] replyJackson() {
    return ScanResultJson.jackson(reply);
  }

  @Benchmark
  public byte[] history16Writer() {
    return HistoryMessages.encode(history);
  }

  @Benchmark
  public byte[] history16Jackson() {
    return HistoryMessages.jackson(history);
  }
}
