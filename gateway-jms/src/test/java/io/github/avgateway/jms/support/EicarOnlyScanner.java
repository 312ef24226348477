package io.github.avgateway.jms.support;

import io.github.avgateway.core.contract.ContractFiles;
import io.github.avgateway.core.model.EngineVersion;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.port.VirusScanner;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** A scanner that knows only EICAR and can be told to fail, for tests of the front-end alone. */
public final class EicarOnlyScanner implements VirusScanner {

  private static final EngineVersion ENGINE = new EngineVersion("fake", "1");

  private final AtomicBoolean failing = new AtomicBoolean();
  private final AtomicInteger scans = new AtomicInteger();
  private volatile Runnable onFailure = () -> {};
  private final AtomicInteger throwNext = new AtomicInteger();

  /** While true, every scan ends in ERROR SCAN_FAILED. */
  public void failing(boolean value) {
    failing.set(value);
  }

  /** Runs {@code action} on every failed scan, before the scan returns. */
  public void onFailure(Runnable action) {
    onFailure = action;
  }

  /**
   * The next {@code count} scans throw, as a broken scanner would: the batch that holds the request
   * rolls back and the broker delivers it again.
   */
  public void throwNext(int count) {
    throwNext.set(count);
  }

  public int scans() {
    return scans.get();
  }

  @Override
  public ScanReport scan(InputStream content, long declaredSize) {
    scans.incrementAndGet();
    if (throwNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new IllegalStateException("scanner told to throw (test)");
    }
    try {
      byte[] bytes = content.readAllBytes();
      if (failing.get()) {
        onFailure.run();
        return ScanReport.notClean(Reason.SCAN_FAILED, "told to fail", ENGINE, 0);
      }
      return Arrays.equals(bytes, ContractFiles.eicar())
          ? ScanReport.infected(List.of(ContractFiles.EICAR_SIGNATURE), ENGINE, 0)
          : ScanReport.clean(ENGINE, 0);
    } catch (IOException e) {
      return ScanReport.notClean(Reason.SCAN_FAILED, e.toString(), ENGINE, 0);
    }
  }

  @Override
  public EngineVersion version() {
    return ENGINE;
  }
}
