package io.github.avgateway.core.clamd;

import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.IntakeGate;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the gateway may scan now: the last {@link ClamdSelfTest} passed and an endpoint is up.
 * The self-test runs in the background from {@link #start()} (startup never waits for clamd nor
 * fails because of it); it runs again every {@code retestInterval} after a pass, and every {@code
 * retryInterval} after a failure, so a clamd that comes up late or is fixed is noticed.
 */
public final class ClamdReadiness implements IntakeGate, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ClamdReadiness.class);

  private final ClamdSelfTest selfTest;
  private final Supplier<Availability> endpoints;
  private final LongSupplier endpointsMarkedDown;
  private final AtomicLong selfTestsFailed = new AtomicLong();
  private final Duration retestInterval;
  private final Duration retryInterval;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "clamd-self-test");
        thread.setDaemon(true);
        return thread;
      });
  private volatile Availability lastSelfTest =
      Availability.down("the clamd self-test has not finished yet");

  /**
   * @param endpoints the scanner's own availability (e.g. {@link ClamdScanner#availability()})
   * @param endpointsMarkedDown how often the scanner marked an endpoint down so far (e.g. {@link
   *     ClamdScanner#markedDown()})
   */
  public ClamdReadiness(
      ClamdSelfTest selfTest,
      Supplier<Availability> endpoints,
      LongSupplier endpointsMarkedDown,
      Duration retestInterval,
      Duration retryInterval) {
    this.selfTest = Objects.requireNonNull(selfTest, "selfTest");
    this.endpoints = Objects.requireNonNull(endpoints, "endpoints");
    this.endpointsMarkedDown = Objects.requireNonNull(endpointsMarkedDown, "endpointsMarkedDown");
    this.retestInterval = retestInterval;
    this.retryInterval = retryInterval;
  }

  /** Starts the first self-test in the background and returns at once. */
  public void start() {
    schedule(Duration.ZERO);
  }

  private void schedule(Duration delay) {
    var unused = timer.schedule(this::runSelfTest, delay.toNanos(), TimeUnit.NANOSECONDS);
  }

  private void runSelfTest() {
    Availability result;
    try {
      result = selfTest.run();
    } catch (RuntimeException e) {
      result = Availability.down("the clamd self-test failed: " + e);
    }
    if (!result.equals(lastSelfTest)) {
      switch (result) {
        case Availability.Up up -> log.info("clamd self-test passed");
        case Availability.Down down -> log.warn("clamd self-test failed: {}", down.why());
      }
    }
    if (result instanceof Availability.Down && lastSelfTest instanceof Availability.Up) {
      selfTestsFailed.incrementAndGet();
    }
    lastSelfTest = result;
    schedule(result instanceof Availability.Up ? retestInterval : retryInterval);
  }

  /** Intake is open exactly while clamd is ready: front-ends pause while it is not. */
  @Override
  public Availability intake() {
    return availability();
  }

  /** Endpoints marked down plus self-tests that failed after a pass, so far. */
  @Override
  public long closings() {
    return endpointsMarkedDown.getAsLong() + selfTestsFailed.get();
  }

  /** The last self-test's result when it failed, else the endpoints' availability. */
  public Availability availability() {
    Availability tested = lastSelfTest;
    return tested instanceof Availability.Down ? tested : endpoints.get();
  }

  /** Stops the background self-test. */
  @Override
  public void close() {
    timer.shutdownNow();
  }
}
