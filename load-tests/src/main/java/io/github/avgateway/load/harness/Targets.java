package io.github.avgateway.load.harness;

import java.util.ArrayList;
import java.util.List;

/**
 * The targets for the gateway's own cost, checked against one run's {@link GatewayFigures}:
 * own CPU per request ≤ clamd's CPU per scan (1 KiB); own CPU ≤ 2 ms per MiB (≥ 1 MiB); throughput
 * ≥ 85 % of the shared bound (every size); p99 at half load ≤ 2 × the broker echo's p99 at the same
 * offered rate (1 KiB, where the half-load cells are).
 */
final class Targets {

  /** The outcome of one check; {@code NA} when a figure it needs was not measured. */
  enum Result {
    PASS,
    MISS,
    NA
  }

  /**
   * One target checked at one transport and size.
   *
   * @param atMost whether {@code value} must be at most {@code limit} (else at least)
   */
  record Check(
      String name, GatewayFigures.Via via, int size, double value, boolean atMost, double limit) {

    Result result() {
      if (Double.isNaN(value) || Double.isInfinite(value)) {
        return Result.NA;
      }
      return (atMost ? value <= limit : value >= limit) ? Result.PASS : Result.MISS;
    }
  }

  static final String OWN_VS_CLAMD = "own CPU per request / clamd CPU per scan";
  static final String OWN_PER_MIB = "own CPU ms per MiB";
  static final String OF_SHARED = "throughput / shared bound";
  static final String P99_VS_ECHO = "p99 at half load / echo p99 at same rate";

  private Targets() {}

  /** Every check the figures allow, in the figures' order. */
  static List<Check> checks(List<GatewayFigures> figures) {
    List<Check> checks = new ArrayList<>();
    for (GatewayFigures f : figures) {
      if (f.size() == 1024) {
        checks.add(new Check(OWN_VS_CLAMD, f.via(), f.size(), f.ownOverClamd(), true, 1.0));
      }
      if (f.size() >= 1024 * 1024) {
        checks.add(new Check(OWN_PER_MIB, f.via(), f.size(), f.ownPerMiB(), true, 2.0));
      }
      checks.add(new Check(OF_SHARED, f.via(), f.size(), f.ofShared(), false, 0.85));
      if (f.size() == 1024) {
        checks.add(new Check(P99_VS_ECHO, f.via(), f.size(), f.p99OverEcho(), true, 2.0));
      }
    }
    return checks;
  }
}
