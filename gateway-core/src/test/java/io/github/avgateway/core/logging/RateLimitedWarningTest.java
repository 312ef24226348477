package io.github.avgateway.core.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RateLimitedWarningTest {

  private static final Duration MINUTE = Duration.ofMinutes(1);

  private final StepClock clock = new StepClock();
  private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
  private Logger logger;

  /** A clock the test moves by hand. */
  private static final class StepClock extends Clock {
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  @BeforeEach
  void captureLines() {
    logger = new LoggerContext().getLogger("rate-limited-test");
    logger.setLevel(Level.DEBUG);
    lines.start();
    logger.addAppender(lines);
  }

  @Test
  void oneLinePerKeyPerWindowThenTheCountOfWhatWasLeftOut() {
    RateLimitedWarning warning = new RateLimitedWarning(logger, MINUTE, 100, clock);

    assertThat(warning.warn("alice|orders", "refused {} for {}", "orders", "alice")).isTrue();
    assertThat(warning.warn("alice|orders", "refused {} for {}", "orders", "alice")).isFalse();
    clock.advance(Duration.ofSeconds(59));
    assertThat(warning.warn("alice|orders", "refused {} for {}", "orders", "alice")).isFalse();
    assertThat(warning.warn("bob|orders", "refused {} for {}", "orders", "bob")).isTrue();
    clock.advance(Duration.ofSeconds(1));
    assertThat(warning.warn("alice|orders", "refused {} for {}", "orders", "alice")).isTrue();

    assertThat(lines.list).extracting(ILoggingEvent::getLevel).containsOnly(Level.WARN);
    assertThat(lines.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .containsExactly(
            "refused orders for alice",
            "refused orders for bob",
            "refused orders for alice (2 more like it not logged in the last PT1M)",
            "refused orders for alice");
  }

  @Test
  void aClosedWindowReportsItsCountWithoutAnotherEventOfItsKey() {
    RateLimitedWarning warning = new RateLimitedWarning(logger, MINUTE, 100, clock);

    warning.warn("a", "x {}", "a");
    warning.warn("a", "x {}", "a");
    warning.warn("b", "x {}", "b");
    clock.advance(MINUTE);
    warning.warn("c", "x {}", "c");

    assertThat(lines.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .containsExactly("x a", "x b", "x a (1 more like it not logged in the last PT1M)", "x c");
  }

  @Test
  void keysBeyondTheLimitShareOneWindowUntilOldOnesExpire() {
    RateLimitedWarning warning = new RateLimitedWarning(logger, MINUTE, 2, clock);

    assertThat(warning.warn("a", "x {}", "a")).isTrue();
    assertThat(warning.warn("b", "x {}", "b")).isTrue();
    assertThat(warning.warn("c", "x {}", "c")).isTrue();
    assertThat(warning.warn("d", "x {}", "d")).as("shares the overflow window with c").isFalse();
    for (int i = 0; i < 1000; i++) {
      assertThat(warning.warn("key" + i, "x {}", "flood")).isFalse();
    }
    clock.advance(MINUTE);
    assertThat(warning.warn("e", "x {}", "e")).as("a and b expired and were forgotten").isTrue();

    assertThat(lines.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .containsExactly(
            "x a", "x b", "x c", "x c (1001 more like it not logged in the last PT1M)", "x e");
  }

  @Test
  void controlCharactersInArgumentsCannotForgeLines() {
    RateLimitedWarning warning = new RateLimitedWarning(logger, MINUTE, 10, clock);

    warning.warn("k\nforged", "refused {}", "orders\n2026-01-01 ERROR forged");

    assertThat(lines.list.get(0).getFormattedMessage())
        .isEqualTo("refused orders?2026-01-01 ERROR forged");
  }
}
