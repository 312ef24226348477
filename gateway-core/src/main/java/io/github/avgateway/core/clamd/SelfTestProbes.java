package io.github.avgateway.core.clamd;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * The payloads of the startup self-test, built at run time so that no file in the source tree or
 * the jar holds a test virus whole (a scanner on a developer machine or an artifact repository
 * would quarantine it).
 */
public final class SelfTestProbes {

  /** Deeper than clamd's default and the project's MaxRecursion of 17 allows. */
  public static final int NESTING_DEPTH = 20;

  private SelfTestProbes() {}

  /** The 68-byte EICAR anti-virus test file, assembled from pieces. */
  public static byte[] eicar() {
    String text =
        String.join(
            "",
            "X5O!P%@AP[4\\PZX54(P^)7CC)7}$",
            "EICAR-STANDARD-",
            "ANTIVIRUS-TEST-FILE!",
            "$H+H*");
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  /** A zip holding {@code content} as its one, deflated entry. */
  public static byte[] zip(String entryName, byte[] content) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      zip.putNextEntry(new ZipEntry(entryName));
      zip.write(content);
      zip.closeEntry();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /**
   * EICAR inside {@code depth} nested zips. Every level is deflated, so the EICAR bytes never
   * appear as such in an outer level: clamd can only find them by unpacking every level.
   */
  public static byte[] nestedEicar(int depth) {
    byte[] current = eicar();
    String name = "eicar.com";
    for (int level = 1; level <= depth; level++) {
      current = zip(name, current);
      name = "level" + level + ".zip";
    }
    return current;
  }

  /** A zip with one encrypted entry (a harmless text; the password is {@code infected}). */
  public static byte[] encryptedZip() {
    byte[] text = "av-gateway self-test: encrypted content\n".getBytes(StandardCharsets.US_ASCII);
    return ZipCryptoWriter.zip("secret.txt", text, "infected", 1L);
  }
}
