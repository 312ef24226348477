/**
 * The clamd client: {@link io.github.avgateway.core.clamd.ClamdScanner} implements the {@link
 * io.github.avgateway.core.port.VirusScanner} port over clamd's TCP protocol.
 *
 * <p>Each payload is streamed with {@code zINSTREAM} in chunks (4-byte big-endian lengths, a zero
 * length at the end) on a {@code zIDSESSION} session borrowed from a per-endpoint commons-pool2
 * pool; replies are matched to their command by the session id and parsed into a closed type by a
 * total parser. CLEAN only for {@code stream: OK} after the whole payload was sent; every other
 * outcome, including timeouts and protocol surprises, is UNSCANNABLE or ERROR.
 *
 * <p>Retry rule: a session that breaks mid-exchange is retried once on a new connection, only when
 * the payload can be sent again from its first byte. A reply in which clamd refuses the command
 * instead of scanning ({@code Error processing command. ERROR}, as a stopping clamd sends) counts
 * as a broken session, never as the scan's answer; when the new connection breaks too, the endpoint
 * is marked down, so that intake pauses. A {@link io.github.avgateway.core.model.ScanContent} is
 * reopened; a caller's {@link java.io.InputStream} is buffered for its first chunk only, so it can
 * be resent when nothing past that chunk was read, and is answered ERROR otherwise. A clamd that
 * stays silent is not retried (the scan would take two read timeouts).
 *
 * <p>{@link io.github.avgateway.core.clamd.ClamdSelfTest} checks at startup that clamd fails
 * closed; {@link io.github.avgateway.core.clamd.ClamdReadiness} runs it in the background and tells
 * whether scanning may start. No Spring type appears here (see the config package).
 */
package io.github.avgateway.core.clamd;
