package io.github.avgateway.load.jmh;

import io.github.avgateway.core.model.EngineVersion;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.model.ScanRequest;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.pipeline.VerdictCache;
import io.github.avgateway.core.port.VirusScanner;
import io.github.avgateway.core.wire.ScanResultJson;
import io.github.avgateway.load.Payloads;
import io.github.avgateway.solr.SolrDocumentMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * The whole per-request CPU path of the gateway without I/O: {@link ScanPipeline#scan} (size check,
 * SHA-256 while streaming, the scanner) with an in-memory scanner that reads every byte in 64 KiB
 * chunks as the clamd client does and answers CLEAN, then the reply body and the history document a
 * front-end builds. What is left of a request's cost once clamd, broker and Solr are taken away.
 *
 * <p>Pitfalls avoided: the in-memory scanner really reads the stream into a buffer that goes to the
 * {@link Blackhole} (a scanner that ignored its input would let the hash see no bytes and the
 * benchmark time nothing); each invocation builds a new {@link ScanRequest} with a new id, as a
 * front-end does, so no per-request object is reused; the reply bytes and the Solr document are
 * consumed; the verdict cache is off, the default, so each call scans.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PipelineBenchmark {

  @Param({"1024", "65536", "1048576"})
  public int size;

  private ScanContent content;
  private ScanPipeline pipeline;
  private final AtomicLong ids = new AtomicLong();

  @Setup
  public void setUp(Blackhole blackhole) {
    content = ScanContent.of(Payloads.random(size, 5));
    pipeline =
        new ScanPipeline(
            new InMemoryScanner(blackhole),
            VerdictCache.disabled(),
            100L * 1024 * 1024,
            Clock.systemUTC(),
            "bench");
  }

  @Benchmark
  public void scanReplyRecord(Blackhole blackhole) {
    ScanRequest request =
        new ScanRequest(
            "req-" + ids.incrementAndGet(),
            null,
            "amqp",
            "file.bin",
            null,
            "application/octet-stream",
            Instant.now(),
            false,
            content);
    ScanResult result = pipeline.scan(request);
    blackhole.consume(ScanResultJson.encode(result));
    MessageInfo doc = pipeline.replied(request, result);
    blackhole.consume(SolrDocumentMapper.toDocument(doc));
  }

  /** Reads the whole payload as the clamd client would, then answers CLEAN. */
  private static final class InMemoryScanner implements VirusScanner {
    private static final EngineVersion ENGINE = new EngineVersion("ClamAV 1.4.6", "");
    private final Blackhole blackhole;
    private final byte[] chunk = new byte[64 * 1024];

    InMemoryScanner(Blackhole blackhole) {
      this.blackhole = blackhole;
    }

    @Override
    public ScanReport scan(InputStream content, long declaredSize) {
      try {
        for (int n = content.read(chunk); n >= 0; n = content.read(chunk)) {
          blackhole.consume(chunk);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return ScanReport.clean(ENGINE, 0);
    }

    @Override
    public EngineVersion version() {
      return ENGINE;
    }
  }
}
