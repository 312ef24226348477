package io.github.avgateway.core.pipe;

import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.WireNames;
import java.time.format.DateTimeFormatter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The headers (AMQP) or string properties (JMS) the gateway adds to a forwarded message: {@code
 * avVerdict}, {@code avScannedAt}, {@code avSha256} (when the body was read), {@code avEngine},
 * then {@code avSignature} when INFECTED or {@code avReason} when UNSCANNABLE or ERROR. The
 * producer's own headers are kept; these names replace any the producer set, so a forwarded message
 * never carries a verdict the gateway did not reach.
 */
public final class ForwardHeaders {

  /** Every name {@link #of} may set: removed from the producer's headers before adding ours. */
  public static final List<String> NAMES =
      List.of(
          WireNames.VERDICT,
          WireNames.SCANNED_AT,
          WireNames.SHA256,
          WireNames.ENGINE,
          WireNames.SIGNATURE,
          WireNames.REASON);

  private ForwardHeaders() {}

  /** The gateway's headers for a message forwarded with {@code result}, in a stable order. */
  public static Map<String, String> of(ScanResult result) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(WireNames.VERDICT, result.verdict().name());
    headers.put(WireNames.SCANNED_AT, DateTimeFormatter.ISO_INSTANT.format(result.scannedAt()));
    if (result.sha256() != null) {
      headers.put(WireNames.SHA256, result.sha256());
    }
    headers.put(WireNames.ENGINE, engine(result));
    if (result.verdict() == Verdict.INFECTED && result.firstSignature() != null) {
      headers.put(WireNames.SIGNATURE, result.firstSignature());
    }
    if (result.verdict() != Verdict.CLEAN
        && result.verdict() != Verdict.INFECTED
        && result.reason() != null) {
      headers.put(WireNames.REASON, result.reason().name());
    }
    return Collections.unmodifiableMap(headers);
  }

  private static String engine(ScanResult result) {
    String engine = result.engine() == null ? "" : result.engine();
    String version = result.signatureVersion();
    return version == null || version.isBlank() ? engine : engine + "/" + version;
  }
}
