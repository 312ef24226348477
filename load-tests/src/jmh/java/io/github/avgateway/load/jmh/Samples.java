package io.github.avgateway.load.jmh;

import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Realistic values for the encoding and mapping benchmarks. */
final class Samples {

  private Samples() {}

  static ScanResult result(boolean infected) {
    String id = UUID.randomUUID().toString();
    return new ScanResult(
        id,
        UUID.randomUUID().toString(),
        infected ? Verdict.INFECTED : Verdict.CLEAN,
        infected ? List.of("Eicar-Test-Signature.UNOFFICIAL") : List.of(),
        null,
        null,
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        infected ? 68 : 1024,
        "ClamAV 1.4.6",
        "",
        false,
        Instant.parse("2026-11-22T10:00:00.123Z"),
        3,
        "gateway-1");
  }

  static MessageInfo history(boolean infected) {
    ScanResult r = result(infected);
    return new MessageInfo(
        MessageInfo.idFor("amqp", r.requestId()),
        r.requestId(),
        r.correlationId(),
        "amqp",
        "billing-service",
        "invoice-2026-11.pdf",
        "application/octet-stream",
        r.sizeBytes(),
        r.sha256(),
        r.verdict(),
        r.signatures(),
        r.reason(),
        r.engine(),
        r.signatureVersion(),
        false,
        Instant.parse("2026-11-22T10:00:00.100Z"),
        r.scannedAt(),
        r.scanMillis(),
        25,
        r.gateway(),
        false,
        Disposition.REPLIED,
        null);
  }
}
