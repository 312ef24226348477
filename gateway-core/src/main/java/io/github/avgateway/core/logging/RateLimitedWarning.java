package io.github.avgateway.core.logging;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;

/**
 * A WARN line at most once per key per window, for events a caller can repeat at will (so that a
 * caller cannot flood the log, yet an operator sees each kind of trouble). The first event of a key
 * is logged at once; the others within the window are counted, and the next line logged for that
 * key says how many were left out. Remembers at most {@code maxKeys} keys: beyond that, the keys
 * that are not remembered share one overflow key. Keys and arguments are logged with control
 * characters replaced, so a caller-chosen value cannot forge log lines. Thread-safe.
 */
public final class RateLimitedWarning {

  /** The key events share once {@code maxKeys} keys are remembered. */
  static final String OVERFLOW_KEY = "(other)";

  private final Logger log;
  private final Duration window;
  private final int maxKeys;
  private final Clock clock;
  private final Map<String, Window> windows = new LinkedHashMap<>();

  private static final class Window {
    private final Instant start;
    private long suppressed;

    private Window(Instant start) {
      this.start = start;
    }
  }

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
    this.clock = Objects.requireNonNull(clock, "clock");
    if (window.isNegative() || window.isZero() || maxKeys < 1) {
      throw new IllegalArgumentException("window and maxKeys must be positive");
    }
  }

  /**
   * Logs {@code format} (SLF4J placeholders) with {@code args} at WARN, unless a line was logged
   * for {@code key} within the window; then it only counts the event.
   *
   * @return whether a line was logged
   */
  public boolean warn(String key, String format, Object... args) {
    long suppressed;
    synchronized (windows) {
      Instant now = clock.instant();
      String slot = slot(key, now);
      Window open = windows.get(slot);
      if (open != null && now.isBefore(open.start.plus(window))) {
        open.suppressed++;
        return false;
      }
      suppressed = open == null ? 0 : open.suppressed;
      windows.put(slot, new Window(now));
    }
    Object[] clean = Arrays.stream(args).map(RateLimitedWarning::printable).toArray();
    if (suppressed == 0) {
      log.warn(format, clean);
    } else {
      Object[] withCount = Arrays.copyOf(clean, clean.length + 1);
      withCount[clean.length] = suppressed;
      log.warn(format + " ({} more like it not logged in the last {})", append(withCount));
    }
    return true;
  }

  private Object[] append(Object[] args) {
    Object[] withWindow = Arrays.copyOf(args, args.length + 1);
    withWindow[args.length] = window;
    return withWindow;
  }

  /** The key an event counts under: its own, or the overflow key when too many are remembered. */
  private String slot(String key, Instant now) {
    String printable = String.valueOf(printable(key));
    if (windows.containsKey(printable) || windows.size() < maxKeys) {
      return printable;
    }
    for (Iterator<Window> it = windows.values().iterator(); it.hasNext(); ) {
      if (!now.isBefore(it.next().start.plus(window))) {
        it.remove();
      }
    }
    return windows.size() < maxKeys ? printable : OVERFLOW_KEY;
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
