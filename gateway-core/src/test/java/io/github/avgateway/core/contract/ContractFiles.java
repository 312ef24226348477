package io.github.avgateway.core.contract;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.SplittableRandom;

/** Payloads of the contract suite. No source file holds the EICAR string whole. */
public final class ContractFiles {

  /** The name clamd reports for EICAR with the project's offline signatures. */
  public static final String EICAR_SIGNATURE = "Eicar-Test-Signature.UNOFFICIAL";

  private ContractFiles() {}

  /** The 68-byte EICAR anti-virus test file, assembled at run time. */
  public static byte[] eicar() {
    String text =
        String.join(
            "", "X5O!P%@AP[4\\PZX54(P^)7CC)7}$", "EICAR-STANDARD-", "ANTIVIRUS-TEST-FILE!$H+H*");
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  /** A harmless text file, different for every {@code seed}. */
  public static byte[] clean(long seed) {
    return ("av-gateway contract test file " + seed + "\n").getBytes(StandardCharsets.US_ASCII);
  }

  /** {@code size} harmless pseudo-random bytes, the same for the same seed. */
  public static byte[] large(int size, long seed) {
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

  /** Lower-case hex SHA-256 of {@code bytes}. */
  public static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
