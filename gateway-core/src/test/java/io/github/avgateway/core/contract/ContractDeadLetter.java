package io.github.avgateway.core.contract;

import io.github.avgateway.core.model.DeadLetterReason;

/**
 * A message a {@link TransportDriver} found on the front-end's dead-letter destination.
 *
 * @param requestId the id of the request it was (as the front-end recorded it in history), or null
 *     when the transport cannot tell
 * @param correlationId the request's correlation id, or null when it had none
 * @param reason the {@code avReason} header or property, parsed
 * @param detail the {@code avReasonDetail} header or property, or null
 */
public record ContractDeadLetter(
    String requestId, String correlationId, DeadLetterReason reason, String detail) {}
