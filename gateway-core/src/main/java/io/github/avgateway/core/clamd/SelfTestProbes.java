package io.github.avgateway.core.clamd;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
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

  /** The encrypted-content probe, next to this class on the class path. */
  static final String ENCRYPTED_ZIP = "self-test-encrypted.zip";

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

  /**
   * A zip with one entry encrypted with the traditional PKWARE cipher ("ZipCrypto", APPNOTE 6.1):
   * {@code secret.txt}, a harmless text, password {@code infected}. Java's zip API cannot encrypt
   * and the archive never changes, so it is a 170-byte resource ({@value #ENCRYPTED_ZIP}, which
   * {@code unzip -P infected} reads) rather than a cipher kept in code; SelfTestProbesTest decrypts
   * it and pins its SHA-256.
   */
  public static byte[] encryptedZip() {
    try (InputStream in = SelfTestProbes.class.getResourceAsStream(ENCRYPTED_ZIP)) {
      if (in == null) {
        throw new IllegalStateException("resource " + ENCRYPTED_ZIP + " missing from the jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
