package io.github.avgateway.core.fault;

import io.github.avgateway.core.clamd.SelfTestProbes;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.Verdict;
import java.nio.charset.StandardCharsets;

/**
 * Payloads of the fault runs with what each must get. No source file holds EICAR whole; every clean
 * payload is unique (so the gateway's verdict cache never answers it).
 */
public final class FaultPayloads {

  private FaultPayloads() {}

  /** A payload and what the gateway must answer for it. */
  public record Payload(byte[] body, String filename, Expected expected) {}

  /**
   * The {@code index}-th request of a mixed load: every {@code eicarEvery}-th one EICAR (plain or
   * zipped, alternately), the others unique clean text.
   */
  public static Payload mixed(String run, int index, int eicarEvery) {
    if (index % eicarEvery == 0) {
      return (index / eicarEvery) % 2 == 0
          ? new Payload(SelfTestProbes.eicar(), "eicar-" + index + ".com", Expected.infected())
          : new Payload(eicarZip(index), "eicar-" + index + ".zip", Expected.infected());
    }
    return new Payload(clean(run, index), "file-" + index + ".txt", Expected.clean());
  }

  /** A harmless text unique to {@code run} and {@code index}. */
  public static byte[] clean(String run, int index) {
    return ("av-gateway fault run " + run + " file " + index + "\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  /** EICAR in a zip, the entry named by {@code index} so that every one differs. */
  public static byte[] eicarZip(int index) {
    return SelfTestProbes.zip("eicar-" + index + ".com", SelfTestProbes.eicar());
  }

  /** EICAR under more nested zips than clamd's MaxRecursion: UNSCANNABLE LIMITS_EXCEEDED. */
  public static Payload zipBomb() {
    return new Payload(
        SelfTestProbes.nestedEicar(SelfTestProbes.NESTING_DEPTH),
        "nested.zip",
        Expected.unscannable(Reason.LIMITS_EXCEEDED, true));
  }

  /** An encrypted zip: UNSCANNABLE ENCRYPTED. */
  public static Payload encrypted() {
    return new Payload(
        SelfTestProbes.encryptedZip(), "secret.zip", Expected.unscannable(Reason.ENCRYPTED, false));
  }

  /** EICAR followed by padding to {@code size} bytes: over the limit, UNSCANNABLE TOO_LARGE. */
  public static Payload oversized(int size) {
    byte[] body = new byte[size];
    byte[] eicar = SelfTestProbes.eicar();
    System.arraycopy(eicar, 0, body, 0, eicar.length);
    return new Payload(body, "large.bin", Expected.unscannable(Reason.TOO_LARGE, true));
  }

  /** What a request dead-lettered after a scan of clean content records. */
  public static Expected cleanDeadLetter(DeadLetterReason reason) {
    return Expected.deadLetter(reason, Verdict.CLEAN, false);
  }
}
