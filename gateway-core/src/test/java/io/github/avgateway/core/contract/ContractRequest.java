package io.github.avgateway.core.contract;

import java.util.Objects;

/**
 * A request the contract suite asks a {@link TransportDriver} to send as a bytes message.
 *
 * @param body the file's bytes (may be empty)
 * @param filename the {@code avFilename} to set, or null for none
 * @param correlationId the correlation id to set, or null for none
 * @param withReplyDestination true to name the driver's reply destination; false to send without
 *     one (the front-end under test must have no default reply destination configured)
 */
public record ContractRequest(
    byte[] body, String filename, String correlationId, boolean withReplyDestination) {

  public ContractRequest {
    Objects.requireNonNull(body, "body");
  }

  /** A request with a reply destination. */
  public static ContractRequest of(byte[] body, String filename, String correlationId) {
    return new ContractRequest(body, filename, correlationId, true);
  }
}
