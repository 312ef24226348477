package io.github.avgateway.core.clamd;

/**
 * One clamd endpoint as the scanner sees it now.
 *
 * @param endpoint {@code host:port}
 * @param up whether scans go to it
 * @param active sessions in use
 * @param idle open sessions waiting in the pool
 * @param waiting scans waiting for a session
 * @param downReason why it is down; empty while up
 */
public record ClamdEndpointState(
    String endpoint, boolean up, int active, int idle, int waiting, String downReason) {}
