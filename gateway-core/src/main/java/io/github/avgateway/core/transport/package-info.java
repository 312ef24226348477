/**
 * What each front-end implements, in the manner of a binder SPI: the stages both transports have
 * are defined here once, and gateway-amqp and gateway-jms each supply their broker's version. The
 * triage ({@link io.github.avgateway.core.transport.RequestTriage}: the {@link
 * io.github.avgateway.core.transport.DeadLetter} of a request refused unscanned, the {@link
 * io.github.avgateway.core.transport.ReplyRoute} of a scanned one, on the shared {@link
 * io.github.avgateway.core.transport.TriageRules}), the reply-destination policy ({@link
 * io.github.avgateway.core.transport.ReplyDestinationPolicy}, with the rule both apply: {@link
 * io.github.avgateway.core.transport.ReplyDestinationRule}) and the intake hold ({@link
 * io.github.avgateway.core.transport.IntakeHold}) live here; the history hand-off ({@link
 * io.github.avgateway.core.history.HistoryStream}) and the history backlog ({@link
 * io.github.avgateway.core.history.HistoryBacklog}) live with the rest of the history path.
 * docs/architecture.md ("Vocabulary") maps each to its class on each transport. No broker type
 * appears here (core's {@code ArchitectureTest}).
 */
package io.github.avgateway.core.transport;
