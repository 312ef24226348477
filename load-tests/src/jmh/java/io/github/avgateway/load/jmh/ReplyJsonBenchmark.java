package io.github.avgateway.load.jmh;

import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.wire.ScanResultJson;
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
 * Encoding the reply body ({@link ScanResultJson#encode}), once per request, and decoding it, as
 * every caller's client does.
 *
 * <p>Pitfalls avoided: the result is built in setup, so the benchmark does not time UUID and record
 * construction; the bytes (or the decoded result) are returned and consumed by JMH; the mapper's
 * first-use cost (serializer lookup, class introspection) lands in warm-up, not in the score, which
 * is the steady state a running gateway sees.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ReplyJsonBenchmark {

  @Param({"CLEAN", "INFECTED"})
  public String verdict;

  private ScanResult result;
  private byte[] body;

  @Setup
  public void setUp() {
    result = Samples.result("INFECTED".equals(verdict));
    body = ScanResultJson.encode(result);
  }

  @Benchmark
  public byte[] encode() {
    return ScanResultJson.encode(result);
  }

  @Benchmark
  public ScanResult decode() {
    return ScanResultJson.decode(body);
  }
}
