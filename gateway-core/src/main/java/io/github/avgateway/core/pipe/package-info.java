/**
 * Clean-pipe (disposition) mode, transport-neutral: which destination a scanned message goes to
 * ({@link io.github.avgateway.core.pipe.PipeOutlet}), the headers added to the forwarded message
 * ({@link io.github.avgateway.core.pipe.ForwardHeaders}) and one pipe's destinations ({@link
 * io.github.avgateway.core.pipe.Pipe}). The front-ends do the forwarding with their own broker's
 * guarantees (a publisher confirm, a transaction) before the inbox message is acknowledged.
 */
package io.github.avgateway.core.pipe;
