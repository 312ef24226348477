package io.github.avgateway.core.logging;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;

/**
 * A WARN line at most once per key per window, for events a caller can repeat at will (so that a
 * caller cannot flood the log, yet an operator sees each kind of trouble). The first event of a key
 * is logged at once and opens the key's window; the others within the window are counted, and when
 * the window closes with a count, one more line (the first line's text) says how many were left
 * out: at most two lines per key per window. The open windows are a Caffeine cache that expires
 * each one a window after its first line (a scheduler closes them on time, and every new window
 * closes expired ones first). At most {@code maxKeys} windows are open at once: beyond that, new
 * keys share one overflow key. Keys and arguments are logged with control characters replaced, so a
 * caller-chosen value cannot forge log lines. Thread-safe (an event counted at the very moment its
 * window expires may be missing from the count).
 */
public final class RateLimitedWarning {

  /** The key events share once {@code maxKeys} keys are remembered. */
  static final String OVERFLOW_KEY = "(other)";

  private final Logger log;
  private final Duration window;
  private final int maxKeys;
  private final Cache<String, Window> windows;

  /** An open window: its first line's text, and how many events it left out since. */
  private record Window(String format, Object[] args, LongAdder suppressed) {}

  /**
   * @param log where the lines go
   * @param window how long after a line no other line is logged for the same key
   * @param maxKeys most keys remembered at once
   * @param clock the time source (tests pass a fixed or stepping clock)
   */
  public RateLimitedWarning(Logger log, Duration window, int maxKeys, Clock clock) {
    this.log = Objects.requireNonNull(log, "log");
    this.window = Objects.requireNonNull(window, "window");
    this.maxKeys = maxKeys;
    Objects.requireNonNull(clock, "clock");
    if (window.isNegative() || window.isZero() || maxKeys < 1) {
      throw new IllegalArgumentException("window and maxKeys must be positive");
    }
    this.windows =
        Caffeine.newBuilder()
            .ticker(() -> nanos(clock.instant()))
            .expireAfterWrite(window)
            .executor(Runnable::run)
            .scheduler(Scheduler.systemScheduler())
            .<String, Window>removalListener((key, open, cause) -> closed(open, cause))
            .build();
  }

  /**
   * Logs {@code format} (SLF4J placeholders) with {@code args} at WARN, unless a line was logged
   * for {@code key} within the window; then it only counts the event.
   *
   * @return whether a line was logged
   */
  public boolean warn(String key, String format, Object... args) {
    String printable = String.valueOf(printable(key));
    Window open = windows.getIfPresent(printable);
    if (open == null) {
      windows.cleanUp();
      String slot = slot(printable);
      Object[] clean = Arrays.stream(args).map(RateLimitedWarning::printable).toArray();
      open = windows.asMap().putIfAbsent(slot, new Window(format, clean, new LongAdder()));
      if (open == null) {
        log.warn(format, clean);
        return true;
      }
    }
    open.suppressed().increment();
    return false;
  }

  /** The key an event counts under: its own, or the overflow key when too many are open. */
  private String slot(String printable) {
    return windows.estimatedSize() < maxKeys ? printable : OVERFLOW_KEY;
  }

  private void closed(Window open, RemovalCause cause) {
    long suppressed = open == null ? 0 : open.suppressed().sum();
    if (cause == RemovalCause.EXPIRED && suppressed > 0) {
      Object[] withCount = Arrays.copyOf(open.args(), open.args().length + 2);
      withCount[open.args().length] = suppressed;
      withCount[open.args().length + 1] = window;
      log.warn(open.format() + " ({} more like it not logged in the last {})", withCount);
    }
  }

  private static long nanos(Instant instant) {
    return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
  }

  private static Object printable(Object value) {
    if (!(value instanceof CharSequence text)) {
      return value;
    }
    StringBuilder out = new StringBuilder(text.length());
    text.codePoints().forEach(c -> out.appendCodePoint(Character.isISOControl(c) ? '?' : c));
    return out.toString();
  }
}
