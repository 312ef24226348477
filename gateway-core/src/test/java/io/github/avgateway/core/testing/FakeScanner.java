package io.github.avgateway.core.testing;

import io.github.avgateway.core.contract.ContractFiles;
import io.github.avgateway.core.model.EngineVersion;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.port.VirusScanner;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The scanner behind the port for tests of a front-end or the pipeline alone, shared by both
 * transports: INFECTED with {@link ContractFiles#EICAR_SIGNATURE} for exactly the EICAR test file,
 * INFECTED with {@link #SIGNATURE} for content holding the word {@link #MARKER} (so no malware-like
 * bytes are needed), CLEAN otherwise. It reads every payload whole, as clamd does. It can be slowed
 * down to keep requests in flight, made to fail as if clamd went away (once, or while told to), or
 * to throw as a broken scanner would.
 */
public final class FakeScanner implements VirusScanner {

  public static final String MARKER = "INFECTED-TEST-MARKER";
  public static final String SIGNATURE = "Fake-Test-Signature";
  public static final EngineVersion ENGINE = new EngineVersion("FakeAV 1.0", "1");

  private final AtomicInteger scans = new AtomicInteger();
  private final AtomicInteger throwNext = new AtomicInteger();
  private final AtomicReference<Runnable> failNext = new AtomicReference<>();
  private final AtomicBoolean failing = new AtomicBoolean();
  private volatile Runnable onFailure = () -> {};
  private volatile Duration delay = Duration.ZERO;

  @Override
  public ScanReport scan(InputStream content, long declaredSize) {
    scans.incrementAndGet();
    if (throwNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new IllegalStateException("scanner told to throw (test)");
    }
    byte[] bytes;
    try {
      bytes = content.readAllBytes();
    } catch (IOException e) {
      return ScanReport.notClean(Reason.SCAN_FAILED, e.toString(), ENGINE, 0);
    }
    Runnable once = failNext.getAndSet(null);
    if (once != null) {
      once.run();
      return ScanReport.notClean(Reason.SCAN_FAILED, "clamd went away (test)", ENGINE, 0);
    }
    if (failing.get()) {
      onFailure.run();
      return ScanReport.notClean(Reason.SCAN_FAILED, "told to fail (test)", ENGINE, 0);
    }
    Duration pause = delay;
    if (!pause.isZero()) {
      LockSupport.parkNanos(pause.toNanos());
    }
    if (Arrays.equals(bytes, ContractFiles.eicar())) {
      return ScanReport.infected(List.of(ContractFiles.EICAR_SIGNATURE), ENGINE, 1);
    }
    return new String(bytes, StandardCharsets.ISO_8859_1).contains(MARKER)
        ? ScanReport.infected(List.of(SIGNATURE), ENGINE, 1)
        : ScanReport.clean(ENGINE, 1);
  }

  @Override
  public EngineVersion version() {
    return ENGINE;
  }

  /** How many payloads were handed to the scanner. */
  public int scans() {
    return scans.get();
  }

  /** The next scan fails as if clamd went away, after running {@code sideEffect}. */
  public void failNext(Runnable sideEffect) {
    failNext.set(sideEffect);
  }

  /** While true, every scan ends in ERROR {@code SCAN_FAILED}, after {@link #onFailure}. */
  public void failing(boolean value) {
    failing.set(value);
  }

  /** Runs {@code action} on every scan that fails because {@link #failing} is on. */
  public void onFailure(Runnable action) {
    onFailure = action;
  }

  /**
   * The next {@code count} scans throw, as a broken scanner would: the request goes back to the
   * broker (requeued on AMQP, its batch rolled back on JMS) and is delivered again.
   */
  public void throwNext(int count) {
    throwNext.set(count);
  }

  /** Makes every scan take at least {@code delay}. */
  public void delay(Duration delay) {
    this.delay = delay;
  }
}
