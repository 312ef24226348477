package io.github.avgateway.load.harness;

import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.ScanResultJson;
import java.time.Instant;
import java.util.List;

/** The reply body the echo servers send: a real CLEAN reply's JSON, so replies weigh the same. */
final class EchoReply {

  static final byte[] BODY =
      ScanResultJson.encode(
          new ScanResult(
              "00000000-0000-0000-0000-000000000000",
              "00000000-0000-0000-0000-000000000000",
              Verdict.CLEAN,
              List.of(),
              null,
              null,
              "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
              1024,
              "ClamAV 1.4.6",
              "",
              false,
              Instant.parse("2026-01-01T00:00:00Z"),
              1,
              "echo"));

  private EchoReply() {}
}
