package io.github.avgateway.core.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@code daily.cud} built by hand, so that a private clamd reports a signature database version
 * offline: {@code VERSION} answers {@code ClamAV 1.4.6/<version>/<build date>} as with the official
 * databases. A {@code .cud} is ClamAV's unsigned container: the 512-byte {@code ClamAV-VDB:} header
 * padded with spaces, then an (uncompressed) tar of {@code daily.info} and the signature files.
 * ClamAV checks that the header's version, signature count, functionality level and build time
 * match those of the {@code daily.info} header line, and the size and SHA-256 of every file the
 * info lists; it checks no digital signature for a {@code .cud} (a {@code .cld} or {@code .cvd}
 * needs ClamAV's own). Only a database named {@code daily.*} sets the version clamd reports.
 * Signatures loaded from it are unofficial: their names end in {@code .UNOFFICIAL}.
 */
public final class UnsignedDailyDatabase {

  /** The file name clamd must find it under in its DatabaseDirectory. */
  public static final String FILE_NAME = "daily.cud";

  private static final int FUNCTIONALITY_LEVEL = 90;

  private UnsignedDailyDatabase() {}

  /**
   * The bytes of a {@code daily.cud} of {@code version}, built at {@code built}, holding {@code
   * files} (name, e.g. {@code daily.hdb}, to content).
   */
  public static byte[] of(int version, Instant built, Map<String, String> files) {
    long stime = built.getEpochSecond();
    Map<String, byte[]> entries = new LinkedHashMap<>();
    StringBuilder info = new StringBuilder(header(version, files.size(), stime, "-")).append('\n');
    files.forEach((name, text) -> {
      byte[] content = text.getBytes(StandardCharsets.US_ASCII);
      entries.put(name, content);
      info.append(name)
          .append(':')
          .append(content.length)
          .append(':')
          .append(hex("SHA-256", content))
          .append('\n');
    });
    Map<String, byte[]> tar = new LinkedHashMap<>();
    tar.put("daily.info", info.toString().getBytes(StandardCharsets.US_ASCII));
    tar.putAll(entries);
    byte[] body = Tar.of(tar, stime);
    byte[] head = new byte[512];
    Arrays.fill(head, (byte) ' ');
    byte[] text =
        header(version, files.size(), stime, hex("MD5", body)).getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(text, 0, head, 0, text.length);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(head);
    out.writeBytes(body);
    return out.toByteArray();
  }

  private static String header(int version, int sigs, long stime, String md5) {
    return "ClamAV-VDB:"
        + stime
        + ":"
        + version
        + ":"
        + sigs
        + ":"
        + FUNCTIONALITY_LEVEL
        + ":"
        + md5
        + ":unsigned:av-gateway-tests:"
        + stime;
  }

  private static String hex(String algorithm, byte[] content) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(content));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The least of a POSIX ustar archive: regular files, then two zero blocks. */
  private static final class Tar {

    private static byte[] of(Map<String, byte[]> files, long mtime) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      files.forEach((name, content) -> {
        out.writeBytes(header(name, content.length, mtime));
        out.writeBytes(content);
        out.writeBytes(new byte[(512 - content.length % 512) % 512]);
      });
      out.writeBytes(new byte[1024]);
      return out.toByteArray();
    }

    private static byte[] header(String name, long size, long mtime) {
      byte[] block = new byte[512];
      put(block, 0, name);
      put(block, 100, "0000644");
      put(block, 108, "0000000");
      put(block, 116, "0000000");
      put(block, 124, String.format("%011o", size));
      put(block, 136, String.format("%011o", mtime));
      Arrays.fill(block, 148, 156, (byte) ' ');
      block[156] = '0';
      put(block, 257, "ustar");
      put(block, 263, "00");
      int sum = 0;
      for (byte b : block) {
        sum += b & 0xff;
      }
      put(block, 148, String.format("%06o", sum));
      block[154] = 0;
      block[155] = ' ';
      return block;
    }

    private static void put(byte[] block, int offset, String text) {
      byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
      System.arraycopy(bytes, 0, block, offset, bytes.length);
    }
  }
}
