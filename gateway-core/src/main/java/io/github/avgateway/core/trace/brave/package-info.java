/**
 * What tracing on Brave (the bridge the gateways run Micrometer Tracing on) needs beyond
 * Micrometer's API: {@link io.github.avgateway.core.trace.brave.BatchingSpanHandler}, which hands
 * finished spans to Zipkin's reporter in batches. Used only where Brave is on the class path.
 */
package io.github.avgateway.core.trace.brave;
