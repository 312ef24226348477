package io.github.avgateway.load.jmh;

import io.github.avgateway.core.clamd.ClamdEndpoint;
import io.github.avgateway.core.clamd.ClamdScanner;
import io.github.avgateway.core.clamd.ClamdSettings;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.load.Payloads;
import java.io.ByteArrayInputStream;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import xyz.capybara.clamav.ClamavClient;
import xyz.capybara.clamav.commands.scan.result.ScanResult;

/**
 * The baseline users would pick instead: the same clean payloads scanned by the real clamd through
 * {@code xyz.capybara:clamav-client} (a new TCP connection and {@code zINSTREAM} per scan, no
 * timeouts) and through the gateway's {@link ClamdScanner} (pooled {@code zIDSESSION} sessions, 64
 * KiB chunks, timeouts). Needs clamd on {@code -Dclamd.host} / {@code -Dclamd.port}
 * (127.0.0.1:3310).
 *
 * <p>Pitfalls avoided: both clients are built once per trial (the pool's warm sessions are the
 * point of the comparison, and a client built per call would time construction); every scan's
 * verdict is returned and consumed, and setup checks that both clients answer CLEAN for the payload
 * and INFECTED for EICAR, so neither side is timing an error path; the payload is the same random
 * array for both, and the same number of threads drives both (4 by default, {@code -t} to change).
 * Results depend on a shared clamd: run both clients in the same JMH run, never compare across
 * runs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 5)
@Fork(1)
@Threads(4)
public class ClamdClientBaseline {

  @Param({"1024", "65536", "1048576"})
  public int size;

  private byte[] payload;
  private ScanContent content;
  private ClamdScanner pooled;
  private ClamavClient capybara;

  @Setup(Level.Trial)
  public void setUp() {
    String host = System.getProperty("clamd.host", "127.0.0.1");
    int port = Integer.getInteger("clamd.port", 3310);
    payload = Payloads.random(size, 3);
    content = ScanContent.of(payload);
    pooled =
        ClamdScanner.start(ClamdSettings.builder(List.of(new ClamdEndpoint(host, port))).build());
    capybara = new ClamavClient(host, port);
    require(pooled.scan(content).verdict() == Verdict.CLEAN, "pooled: payload not CLEAN");
    require(
        pooled.scan(ScanContent.of(Payloads.eicar())).verdict() == Verdict.INFECTED,
        "pooled: EICAR not INFECTED");
    require(capybara.scan(new ByteArrayInputStream(payload)) instanceof ScanResult.OK, "capybara");
    require(
        capybara.scan(new ByteArrayInputStream(Payloads.eicar())) instanceof ScanResult.VirusFound,
        "capybara: EICAR not found");
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    pooled.close();
  }

  @Benchmark
  public ScanReport pooledSessions() {
    return pooled.scan(content);
  }

  @Benchmark
  public ScanResult clamavClientNewConnection() {
    return capybara.scan(new ByteArrayInputStream(payload));
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new IllegalStateException(message);
    }
  }
}
