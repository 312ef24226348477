package io.github.avgateway.core.trace;

import java.time.Instant;

/**
 * Where and when a request came in.
 *
 * @param system the messaging system, e.g. {@code jms} or {@code rabbitmq}
 * @param queue the queue it was taken from
 * @param brokerTime when the broker (or its sender) stamped it, or null when it carries no stamp
 * @param receivedAt when the gateway took it
 */
public record Intake(String system, String queue, Instant brokerTime, Instant receivedAt) {}
