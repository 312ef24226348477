package io.github.avgateway.load.history;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The history documents of the scale benchmark, each a pure function of its index: the same index
 * always gives the same document, so a run can stop and continue, and the queries know what they
 * will find. One pass of {@code n} documents spreads them in time order over the 30-day window (as
 * a deployment writes them), and each later pass of a resumed fill lays more documents over the
 * same window, so every size holds 30 days of history, like a store at steady state under a 30-day
 * retention.
 *
 * <p>The mix (fractions of documents): 95 % CLEAN, 3 % INFECTED (one signature out of 300 with a
 * skewed, Zipf-like frequency), 1.5 % UNSCANNABLE, 0.5 % ERROR (0.2 % of all dead-lettered); 35 %
 * of scans are of one of 10,000 popular files (the same SHA-256, size and verdict each time), the
 * rest of files seen once; 60 % AMQP (UUID message ids), 40 % JMS ({@code ID:} + UUID); 90 % with a
 * correlation id, 40 client ids, 3 gateways, sizes from 200 B to 50 MiB around a median of about
 * 100 KiB.
 */
final class ScaleData {

  static final Duration WINDOW = Duration.ofDays(30);
  static final int POPULAR_FILES = 10_000;
  static final int SIGNATURES = 300;
  private static final String[] EXTENSIONS = {"pdf", "docx", "png", "jpg", "zip", "txt", "csv"};
  private static final String[] TYPES = {
    "application/pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "image/png",
    "image/jpeg",
    "application/zip",
    "text/plain",
    "text/csv"
  };
  private static final String[] FAMILIES = {
    "Win.Trojan.Agent", "Doc.Dropper.Agent", "Pdf.Exploit.CVE_2018_4993", "Win.Malware.Emotet",
    "Xls.Downloader.Generic", "Html.Phishing.Bank", "Js.Trojan.Nemucod", "Unix.Trojan.Mirai"
  };

  private final Instant windowStart;

  ScaleData(Instant windowStart) {
    this.windowStart = windowStart;
  }

  Instant windowStart() {
    return windowStart;
  }

  Instant windowEnd() {
    return windowStart.plus(WINDOW);
  }

  /** The document at position {@code j} of a pass of {@code passSize} starting at {@code first}. */
  MessageInfo document(long first, long passSize, long j) {
    long g = first + j;
    long offsetMillis = (long) ((j + 0.5) * WINDOW.toMillis() / passSize);
    Instant receivedAt = windowStart.plusMillis(offsetMillis);
    return document(g, receivedAt);
  }

  /** The document with global index {@code g}, received at {@code receivedAt}. */
  MessageInfo document(long g, Instant receivedAt) {
    boolean amqp = unit(g, 1) < 0.6;
    String transport = amqp ? "amqp" : "jms";
    String requestId = (amqp ? "" : "ID:") + uuid(g, 2);
    String correlationId = unit(g, 3) < (amqp ? 0.9 : 0.3) ? uuid(g, 4) : null;
    boolean popular = unit(g, 5) < 0.35;
    long file = popular ? zipf(unit(g, 6), POPULAR_FILES, 1.0) : POPULAR_FILES + g;
    Verdict verdict = verdictOf(popular ? unit(file, 7) : unit(g, 7));
    long size = sizeOf(file);
    int ext = (int) (mix(file, 8) >>> 33) % EXTENSIONS.length;
    List<String> signatures =
        verdict == Verdict.INFECTED ? List.of(signature(popular ? file : g)) : List.of();
    Reason reason = reasonOf(verdict, unit(g, 9));
    boolean deadLettered = verdict == Verdict.ERROR && unit(g, 10) < 0.4;
    long scanMillis = 1 + size / 400_000 + (mix(g, 11) >>> 60);
    return new MessageInfo(
        MessageInfo.idFor(transport, requestId),
        requestId,
        correlationId,
        transport,
        unit(g, 12) < 0.95 ? "service-" + zipf(unit(g, 13), 40, 1.2) : null,
        unit(g, 14) < 0.8 ? "upload-" + (file % 1_000_000) + "." + EXTENSIONS[ext] : null,
        unit(g, 15) < 0.7 ? TYPES[ext] : null,
        size,
        sha256(file),
        verdict,
        signatures,
        reason,
        "ClamAV 1.4.3",
        "27472",
        popular && unit(g, 16) < 0.2,
        receivedAt,
        receivedAt.plusMillis(scanMillis),
        scanMillis,
        scanMillis + 2 + (mix(g, 17) >>> 61),
        "gateway-" + (char) ('a' + (mix(g, 18) >>> 62) % 3),
        unit(g, 19) < 0.001,
        deadLettered ? Disposition.DEAD_LETTERED : Disposition.REPLIED,
        deadLettered ? DeadLetterReason.MALFORMED_REQUEST : null);
  }

  /** The signature an infected file of identity {@code file} is reported with. */
  static String signature(long file) {
    int rank = zipf(unit(file, 20), SIGNATURES, 1.1);
    return FAMILIES[rank % FAMILIES.length] + "-" + (9_000_000 + rank * 7919L) + "-0";
  }

  /** Lower-case hex SHA-256 stand-in of file {@code file}: 64 hex digits, distinct per file. */
  static String sha256(long file) {
    StringBuilder hex = new StringBuilder(64);
    for (int i = 0; i < 4; i++) {
      String part = Long.toHexString(mix(file, 30 + i));
      hex.repeat('0', 16 - part.length()).append(part);
    }
    return hex.toString();
  }

  private static Verdict verdictOf(double u) {
    if (u < 0.95) {
      return Verdict.CLEAN;
    }
    if (u < 0.98) {
      return Verdict.INFECTED;
    }
    return u < 0.995 ? Verdict.UNSCANNABLE : Verdict.ERROR;
  }

  private static Reason reasonOf(Verdict verdict, double u) {
    return switch (verdict) {
      case CLEAN, INFECTED -> null;
      case UNSCANNABLE ->
          u < 0.5 ? Reason.LIMITS_EXCEEDED : u < 0.8 ? Reason.ENCRYPTED : Reason.TOO_LARGE;
      case ERROR -> u < 0.6 ? Reason.SCAN_FAILED : Reason.MALFORMED_REQUEST;
    };
  }

  /** Log-normal around about 100 KiB, between 200 B and 50 MiB. */
  private static long sizeOf(long file) {
    double normal = 0;
    for (int i = 0; i < 4; i++) {
      normal += unit(file, 40 + i);
    }
    normal = (normal - 2) * Math.sqrt(3); // mean 0, variance 1
    double size = Math.exp(Math.log(100_000) + 2.0 * normal);
    return Math.max(200, Math.min(50L << 20, (long) size));
  }

  private static String uuid(long g, int salt) {
    long high = (mix(g, salt) & ~0xF000L) | 0x4000L;
    long low = (mix(g, salt + 100) & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    return new UUID(high, low).toString();
  }

  /** A rank in [0, n) drawn from {@code u} with a frequency about 1 / (rank + 1)^s. */
  static int zipf(double u, int n, double s) {
    double exponent = 1 - s;
    double x;
    if (Math.abs(exponent) < 1e-9) {
      x = Math.exp(u * Math.log(n + 1)) - 1;
    } else {
      double total = (Math.pow(n + 1, exponent) - 1) / exponent;
      x = Math.pow(u * total * exponent + 1, 1 / exponent) - 1;
    }
    return (int) Math.min(n - 1, Math.max(0, Math.floor(x)));
  }

  /** A uniform value in [0, 1) for index {@code g} and purpose {@code salt}. */
  static double unit(long g, int salt) {
    return (mix(g, salt) >>> 11) * 0x1.0p-53;
  }

  /** A well-mixed 64-bit value of {@code g} and {@code salt} (SplitMix64's finalizer). */
  static long mix(long g, int salt) {
    long z = g * 0x9E3779B97F4A7C15L + salt * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
