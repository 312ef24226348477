package io.github.avgateway.core.clamd;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

/**
 * Builds a zip archive of one stored entry encrypted with the traditional PKWARE cipher
 * ("ZipCrypto", PKWARE APPNOTE section 6.1), which {@code unzip -P} reads. Java's zip API cannot
 * encrypt; the self-test needs such an archive to check that clamd alerts on encrypted content. The
 * cipher is weak by design and used here only to set the encrypted flag on real data.
 */
final class ZipCryptoWriter {

  private static final int[] CRC_TABLE = crcTable();
  private static final int HEADER_LENGTH = 12;
  private static final int VERSION = 20;
  private static final int FLAG_ENCRYPTED = 1;
  private static final int DOS_DATE_1980_01_01 = 0x21;

  private int key0 = 0x12345678;
  private int key1 = 0x23456789;
  private int key2 = 0x34567890;

  private ZipCryptoWriter(byte[] password) {
    for (byte b : password) {
      updateKeys(b);
    }
  }

  /**
   * The archive bytes. {@code seed} fixes the 11 random bytes of the encryption header, so equal
   * arguments give equal archives.
   */
  static byte[] zip(String entryName, byte[] content, String password, long seed) {
    CRC32 crc = new CRC32();
    crc.update(content);
    int crcValue = (int) crc.getValue();
    byte[] encrypted =
        new ZipCryptoWriter(password.getBytes(StandardCharsets.UTF_8))
            .encrypt(header(crcValue, seed), content);
    byte[] name = entryName.getBytes(StandardCharsets.UTF_8);
    ZipBytes out = new ZipBytes();
    out.localHeader(name, crcValue, encrypted.length, content.length);
    out.writeBytes(encrypted);
    int centralStart = out.size();
    out.centralHeader(name, crcValue, encrypted.length, content.length);
    out.end(centralStart, out.size() - centralStart);
    return out.toByteArray();
  }

  /** 11 random bytes, then the CRC's high byte, which a reader uses to check the password. */
  private static byte[] header(int crc, long seed) {
    byte[] header = new byte[HEADER_LENGTH];
    new SplittableRandom(seed).nextBytes(header);
    header[HEADER_LENGTH - 1] = (byte) (crc >>> 24);
    return header;
  }

  private byte[] encrypt(byte[] header, byte[] content) {
    byte[] out = new byte[header.length + content.length];
    for (int i = 0; i < out.length; i++) {
      byte plain = i < header.length ? header[i] : content[i - header.length];
      out[i] = (byte) (plain ^ keyStreamByte());
      updateKeys(plain);
    }
    return out;
  }

  private int keyStreamByte() {
    int temp = (key2 | 2) & 0xffff;
    return ((temp * (temp ^ 1)) >>> 8) & 0xff;
  }

  private void updateKeys(byte plain) {
    key0 = crc32(key0, plain);
    key1 = (key1 + (key0 & 0xff)) * 134775813 + 1;
    key2 = crc32(key2, (byte) (key1 >>> 24));
  }

  private static int crc32(int crc, byte b) {
    return (crc >>> 8) ^ CRC_TABLE[(crc ^ b) & 0xff];
  }

  private static int[] crcTable() {
    int[] table = new int[256];
    for (int n = 0; n < 256; n++) {
      int c = n;
      for (int k = 0; k < 8; k++) {
        c = (c & 1) != 0 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      }
      table[n] = c;
    }
    return table;
  }

  /** Little-endian zip records for one stored, encrypted entry. */
  private static final class ZipBytes extends ByteArrayOutputStream {
    void localHeader(byte[] name, int crc, int compressed, int size) {
      le32(0x04034b50);
      entryFields(crc, compressed, size, name.length);
      write(name, 0, name.length);
    }

    void centralHeader(byte[] name, int crc, int compressed, int size) {
      le32(0x02014b50);
      le16(VERSION); // made by
      entryFields(crc, compressed, size, name.length);
      le16(0); // comment length
      le16(0); // disk number
      le16(0); // internal attributes
      le32(0); // external attributes
      le32(0); // offset of the local header
      write(name, 0, name.length);
    }

    void end(int centralStart, int centralLength) {
      le32(0x06054b50);
      le16(0);
      le16(0);
      le16(1);
      le16(1);
      le32(centralLength);
      le32(centralStart);
      le16(0);
    }

    private void entryFields(int crc, int compressed, int size, int nameLength) {
      le16(VERSION); // needed to extract
      le16(FLAG_ENCRYPTED);
      le16(0); // stored
      le16(0); // time
      le16(DOS_DATE_1980_01_01);
      le32(crc);
      le32(compressed);
      le32(size);
      le16(nameLength);
      le16(0); // extra length
    }

    private void le16(int value) {
      write(value);
      write(value >>> 8);
    }

    private void le32(int value) {
      le16(value);
      le16(value >>> 16);
    }
  }
}
