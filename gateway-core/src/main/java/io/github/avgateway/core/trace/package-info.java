/**
 * Request tracing: each request a front-end takes is one span in the caller's W3C trace (or a new
 * one), with child spans for its wait in the request queue, its scan, its reply, forward or
 * dead-letter (up to the broker's confirm or the commit) and its history hand-off. Spoken through
 * Micrometer Tracing's API; {@link io.github.avgateway.core.trace.RequestTracer#NONE} when tracing
 * is off, which does nothing and allocates nothing per request.
 */
package io.github.avgateway.core.trace;
