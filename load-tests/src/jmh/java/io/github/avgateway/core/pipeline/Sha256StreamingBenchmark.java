package io.github.avgateway.core.pipeline;

import io.github.avgateway.load.Payloads;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * SHA-256 while streaming: the pipeline reads each payload through {@link HashingInputStream} in
 * the 64 KiB chunks the clamd client uses, so the hash costs no second pass. {@code plainRead} is
 * the same loop without hashing, to show what the hash itself adds.
 *
 * <p>Pitfalls avoided: each chunk buffer goes to the {@link Blackhole} and the hex digest is
 * returned, so neither the reads nor the digest can be removed as dead code; a fresh stream per
 * invocation (a drained one would hash nothing); the buffer is allocated once in setup, as the
 * client's chunk buffer is per scan, so allocation does not blur a per-byte cost. Same package as
 * the package-private stream.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class Sha256StreamingBenchmark {

  @Param({"1024", "65536", "1048576"})
  public int size;

  private byte[] payload;
  private final byte[] chunk = new byte[64 * 1024];

  @Setup
  public void setUp() {
    payload = Payloads.random(size, 11);
  }

  @Benchmark
  public String hashWhileReading(Blackhole blackhole) throws IOException {
    try (HashingInputStream in = new HashingInputStream(new ByteArrayInputStream(payload))) {
      readAll(in, blackhole);
      return in.hex();
    }
  }

  @Benchmark
  public long plainRead(Blackhole blackhole) throws IOException {
    try (InputStream in = new ByteArrayInputStream(payload)) {
      return readAll(in, blackhole);
    }
  }

  private long readAll(InputStream in, Blackhole blackhole) throws IOException {
    long total = 0;
    for (int n = in.read(chunk, 0, chunk.length); n >= 0; n = in.read(chunk, 0, chunk.length)) {
      blackhole.consume(chunk);
      total += n;
    }
    return total;
  }
}
