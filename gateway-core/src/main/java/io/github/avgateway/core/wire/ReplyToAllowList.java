package io.github.avgateway.core.wire;

import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The allow-list a reply destination's name must match as a whole, on either transport. Names that
 * matched are remembered: callers reuse a few reply queues, and a RabbitMQ direct reply-to name is
 * about a hundred characters for the pattern to walk on every request (3 % of an AMQP consumer's
 * CPU samples at 1 KiB). The memory is cleared when it holds {@link #MATCHED_KEPT} names, so names
 * sent at will cannot grow it; a name that did not match is never remembered. Thread-safe.
 */
public final class ReplyToAllowList {

  private static final int MATCHED_KEPT = 1024;

  private final Pattern pattern;
  private final Set<String> matched = ConcurrentHashMap.newKeySet();

  public ReplyToAllowList(Pattern pattern) {
    this.pattern = Objects.requireNonNull(pattern, "pattern");
  }

  /** True when {@code name} matches the pattern as a whole. */
  public boolean allows(String name) {
    if (matched.contains(name)) {
      return true;
    }
    if (!pattern.matcher(name).matches()) {
      return false;
    }
    if (matched.size() >= MATCHED_KEPT) {
      matched.clear();
    }
    matched.add(name);
    return true;
  }

  /** The pattern's text, for the reason of a refusal. */
  public String pattern() {
    return pattern.pattern();
  }
}
