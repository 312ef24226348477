package io.github.avgateway.core.port;

/**
 * How many history documents carry one signature.
 *
 * @param signature the signature name as clamd reported it
 * @param count documents with it (0 or more)
 */
public record SignatureCount(String signature, long count) {}
