package io.github.avgateway.amqp.testing;

import io.github.avgateway.core.model.EngineVersion;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.port.VirusScanner;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * A scanner for tests of the front-end alone: INFECTED when the content contains the word {@code
 * INFECTED-TEST-MARKER} (so no malware-like bytes are needed), CLEAN otherwise. Can be slowed down
 * to keep requests in flight, made to fail as if clamd went away, or to throw as a broken scanner
 * would.
 */
public final class FakeScanner implements VirusScanner {

  public static final String MARKER = "INFECTED-TEST-MARKER";
  public static final String SIGNATURE = "Fake-Test-Signature";
  public static final EngineVersion ENGINE = new EngineVersion("FakeAV 1.0", "1");

  private final AtomicInteger scans = new AtomicInteger();
  private volatile Duration delay = Duration.ZERO;
  private final AtomicReference<Runnable> failNext = new AtomicReference<>();
  private final AtomicInteger throwNext = new AtomicInteger();

  @Override
  public ScanReport scan(InputStream content, long declaredSize) {
    scans.incrementAndGet();
    if (throwNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new IllegalStateException("scanner told to throw (test)");
    }
    Runnable failure = failNext.getAndSet(null);
    if (failure != null) {
      failure.run();
      return ScanReport.notClean(Reason.SCAN_FAILED, "clamd went away (test)", ENGINE, 0);
    }
    Duration pause = delay;
    if (!pause.isZero()) {
      LockSupport.parkNanos(pause.toNanos());
    }
    try {
      String text = new String(content.readAllBytes(), StandardCharsets.ISO_8859_1);
      return text.contains(MARKER)
          ? ScanReport.infected(List.of(SIGNATURE), ENGINE, 1)
          : ScanReport.clean(ENGINE, 1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public EngineVersion version() {
    return ENGINE;
  }

  /** How many payloads were scanned. */
  public int scans() {
    return scans.get();
  }

  /** The next scan fails as if clamd went away, after running {@code sideEffect}. */
  public void failNext(Runnable sideEffect) {
    failNext.set(sideEffect);
  }

  /**
   * The next {@code count} scans throw, as a broken scanner would: the request is requeued and the
   * broker delivers it again.
   */
  public void throwNext(int count) {
    throwNext.set(count);
  }

  /** Makes every scan take at least {@code delay}. */
  public void delay(Duration delay) {
    this.delay = delay;
  }
}
