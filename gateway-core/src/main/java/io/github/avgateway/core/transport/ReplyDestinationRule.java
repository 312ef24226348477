package io.github.avgateway.core.transport;

import io.github.avgateway.core.wire.ReplyToAllowList;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rule both transports apply to the name of a reply destination: never one of the gateway's own
 * queues (a reply there would come back in as a request), and a match of the allow-list pattern as
 * a whole. Thread-safe.
 */
public final class ReplyDestinationRule {

  private final ReplyToAllowList allowed;
  private final Set<String> ownQueues;

  /**
   * @param allowed the whole-name pattern a reply destination must match
   * @param ownQueues queue names a reply never goes to (the gateway's own queues)
   */
  public ReplyDestinationRule(Pattern allowed, Set<String> ownQueues) {
    this.allowed = new ReplyToAllowList(allowed);
    this.ownQueues = Set.copyOf(ownQueues);
  }

  /**
   * Empty when replies may go to the queue {@code name}; else why not.
   *
   * @param field how the transport calls the destination in the sentence ({@code reply_to}, {@code
   *     JMSReplyTo})
   */
  public Optional<String> refusal(String field, String name) {
    if (ownQueues.contains(name)) {
      return Optional.of(field + " names one of the gateway's own queues");
    }
    if (!allowed.allows(name)) {
      return Optional.of(field + " does not match the allowed pattern " + allowed.pattern());
    }
    return Optional.empty();
  }
}
