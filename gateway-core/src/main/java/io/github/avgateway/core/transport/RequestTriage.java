package io.github.avgateway.core.transport;

import java.util.Optional;

/**
 * The triage stage, which each front-end implements for its broker's request type on the rules both
 * share ({@link TriageRules}, {@link ReplyDestinationRule}): before any scan, whether a request is
 * refused unscanned; for a scanned one, where its reply goes. What happens to a scan that failed
 * while intake was down is {@link TriageRules#held} on both. No I/O.
 *
 * @param <R> the transport's request as triage reads it
 * @param <D> the transport's reply destination
 */
public interface RequestTriage<R, D> {

  /**
   * The dead-letter of a request refused without a scan: one delivered more often than the limit
   * ({@code DELIVERY_LIMIT_EXCEEDED}: scanning a poison message again would only repeat whatever
   * went wrong), a malformed one ({@code MALFORMED_REQUEST}), and one whose reply destination the
   * policy refuses ({@code REPLY_DESTINATION_NOT_ALLOWED}: a caller that may not be answered costs
   * no scan), the last checked last. Empty when the request is to be scanned.
   */
  Optional<DeadLetter> beforeScan(R request);

  /**
   * Where the reply to a scanned request goes: its own reply destination (one the policy refuses
   * never gets this far), else {@code defaultDestination}, else nowhere ({@code
   * NO_REPLY_DESTINATION}). A clean-pipe message is forwarded whatever this says; an undeliverable
   * route only costs it its reply.
   *
   * @param defaultDestination the configured default reply destination as the transport holds it
   *     (AMQP: a queue name; JMS: a queue of the consumer's session), or null for none
   */
  ReplyRoute<D> replyRoute(R request, D defaultDestination);
}
