package io.github.avgateway.core.contract;

import io.github.avgateway.core.model.ScanResult;

/**
 * A reply as a {@link TransportDriver} received it on its reply destination, in transport-neutral
 * terms.
 *
 * @param correlationId the reply's transport-level correlation id ({@code JMSCorrelationID}, AMQP
 *     {@code correlation_id})
 * @param verdict the {@code avVerdict} header or property
 * @param signature the {@code avSignature} header or property, or null
 * @param reason the {@code avReason} header or property, or null
 * @param contentType the reply's content type
 * @param body the decoded JSON body
 */
public record ContractReply(
    String correlationId,
    String verdict,
    String signature,
    String reason,
    String contentType,
    ScanResult body) {}
