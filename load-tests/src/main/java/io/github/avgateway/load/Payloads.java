package io.github.avgateway.load;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Payloads for benchmarks and load runs: deterministic pseudo-random bytes (clean, and not
 * compressible, so neither the broker nor clamd gets an easy ride) and the EICAR test file. EICAR
 * is assembled from pieces at run time, so that no file of this project holds it whole (a virus
 * scanner on a developer's machine would quarantine it).
 */
public final class Payloads {

  private Payloads() {}

  /** {@code size} pseudo-random bytes, the same for the same {@code seed}. */
  public static byte[] random(int size, long seed) {
    byte[] bytes = new byte[size];
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < size; i += 8) {
      long value = random.nextLong();
      for (int j = 0; j < 8 && i + j < size; j++) {
        bytes[i + j] = (byte) (value >>> (8 * j));
      }
    }
    return bytes;
  }

  /** The 68-byte EICAR anti-virus test file. */
  public static byte[] eicar() {
    String text =
        "X5O!P%@AP[4\\PZX54(P^)7CC)7}$" + "EICAR-STANDARD-" + "ANTIVIRUS-TEST-FILE!" + "$H+H*";
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  /** Parses sizes such as {@code 1024}, {@code 64k}, {@code 1m}, {@code 10MiB}. */
  public static int parseSize(String text) {
    String t = text.strip().toLowerCase(java.util.Locale.ROOT).replace("ib", "").replace("b", "");
    int factor = 1;
    if (t.endsWith("k")) {
      factor = 1024;
    } else if (t.endsWith("m")) {
      factor = 1024 * 1024;
    }
    String digits = factor == 1 ? t : t.substring(0, t.length() - 1);
    return Math.toIntExact(Long.parseLong(digits.strip()) * factor);
  }

  /** 1024 → "1 KiB", 1048576 → "1 MiB". */
  public static String label(int size) {
    if (size >= 1024 * 1024 && size % (1024 * 1024) == 0) {
      return size / (1024 * 1024) + " MiB";
    }
    if (size >= 1024 && size % 1024 == 0) {
      return size / 1024 + " KiB";
    }
    return size + " B";
  }
}
