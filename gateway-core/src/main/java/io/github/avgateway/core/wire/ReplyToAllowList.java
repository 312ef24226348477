package io.github.avgateway.core.wire;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The allow-list a reply destination's name must match as a whole, on either transport. Names that
 * matched are remembered: callers reuse a few reply queues, and a RabbitMQ direct reply-to name is
 * about a hundred characters for the pattern to walk on every request (3 % of an AMQP consumer's
 * CPU samples at 1 KiB). The memory is a Caffeine cache of at most {@link #MATCHED_KEPT} names, so
 * names sent at will cannot grow it (they only evict each other); a name that did not match is
 * never remembered, so an evicted name is only matched again. Thread-safe.
 */
public final class ReplyToAllowList {

  static final int MATCHED_KEPT = 1024;

  private final Pattern pattern;
  private final Cache<String, Boolean> matched =
      Caffeine.newBuilder().maximumSize(MATCHED_KEPT).build();

  public ReplyToAllowList(Pattern pattern) {
    this.pattern = Objects.requireNonNull(pattern, "pattern");
  }

  /** True when {@code name} matches the pattern as a whole. */
  public boolean allows(String name) {
    if (matched.getIfPresent(name) != null) {
      return true;
    }
    if (!pattern.matcher(name).matches()) {
      return false;
    }
    matched.put(name, Boolean.TRUE);
    return true;
  }

  /** The pattern's text, for the reason of a refusal. */
  public String pattern() {
    return pattern.pattern();
  }

  /** How many matched names are remembered now (an estimate, as Caffeine counts them). */
  long remembered() {
    matched.cleanUp();
    return matched.estimatedSize();
  }
}
