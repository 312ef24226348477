package io.github.avgateway.core.clamd;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
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
 * Framing one payload as {@code zINSTREAM} ({@link InstreamWriter#write}) with the default 64 KiB
 * chunks, into an output stream that costs nothing: what the client adds before bytes reach the
 * socket. {@code frame} uses one frame buffer for every payload, as a pooled session does; {@code
 * frameWithNewBuffer} allocates one per payload, as the client did per scan before sessions kept
 * theirs.
 *
 * <p>Pitfalls avoided: every written byte range goes to a {@link Blackhole} (an output stream that
 * discards without a look would let the JIT drop the copies); the input stream is created per
 * invocation (a drained stream reused from the last call would measure an empty payload); the
 * {@link InstreamWriter.Result} is returned and consumed. Payloads are random bytes, set up once.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class InstreamFramingBenchmark {

  @Param({"1024", "65536", "1048576"})
  public int size;

  private byte[] payload;
  private InstreamWriter writer;
  private byte[] frame;
  private OutputStream sink;

  @Setup
  public void setUp(Blackhole blackhole) {
    payload = io.github.avgateway.load.Payloads.random(size, 7);
    writer = new InstreamWriter(64 * 1024, 100L * 1024 * 1024);
    frame = writer.newFrameBuffer();
    sink = new BlackholeOutputStream(blackhole);
  }

  @Benchmark
  public InstreamWriter.Result frame() throws IOException, PayloadException {
    return writer.write(new ByteArrayInputStream(payload), sink, frame);
  }

  @Benchmark
  public InstreamWriter.Result frameWithNewBuffer() throws IOException, PayloadException {
    return writer.write(new ByteArrayInputStream(payload), sink);
  }

  /** Hands every write to the blackhole, as a socket would take the bytes. */
  private static final class BlackholeOutputStream extends OutputStream {
    private final Blackhole blackhole;

    BlackholeOutputStream(Blackhole blackhole) {
      this.blackhole = blackhole;
    }

    @Override
    public void write(int b) {
      blackhole.consume(b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
      blackhole.consume(bytes);
      blackhole.consume(offset + length);
    }
  }
}
