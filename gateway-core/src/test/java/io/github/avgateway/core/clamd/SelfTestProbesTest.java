package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;

class SelfTestProbesTest {

  @Test
  void eicarIsTheStandardSixtyEightBytes() throws Exception {
    byte[] eicar = SelfTestProbes.eicar();
    assertThat(eicar).hasSize(68);
    assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(eicar)))
        .isEqualTo("44d88612fea8a8f36de82e1278abb02f");
  }

  @Test
  void nestedEicarUnpacksLevelByLevelToEicar() throws Exception {
    byte[] current = SelfTestProbes.nestedEicar(5);
    for (int level = 5; level >= 1; level--) {
      assertThat(contains(current, SelfTestProbes.eicar())).isFalse();
      try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(current))) {
        ZipEntry entry = zip.getNextEntry();
        assertThat(entry.getName())
            .isEqualTo(level == 1 ? "eicar.com" : "level" + (level - 1) + ".zip");
        current = zip.readAllBytes();
        assertThat(zip.getNextEntry()).isNull();
      }
    }
    assertThat(current).isEqualTo(SelfTestProbes.eicar());
  }

  @Test
  void theEncryptedZipHasTheEncryptedFlagAndDecryptsWithItsPassword() {
    byte[] zip = SelfTestProbes.encryptedZip();
    ByteBuffer header = ByteBuffer.wrap(zip).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(header.getInt(0)).isEqualTo(0x04034b50);
    assertThat(header.getShort(6) & 1).isEqualTo(1);
    int crc = header.getInt(14);
    int compressed = header.getInt(18);
    int size = header.getInt(22);
    int nameLength = header.getShort(26);
    assertThat(new String(zip, 30, nameLength, StandardCharsets.UTF_8)).isEqualTo("secret.txt");
    assertThat(compressed).isEqualTo(size + 12);

    byte[] plain = decrypt(zip, 30 + nameLength, compressed, "infected");
    assertThat(plain[11]).isEqualTo((byte) (crc >>> 24));
    byte[] content = java.util.Arrays.copyOfRange(plain, 12, plain.length);
    CRC32 check = new CRC32();
    check.update(content);
    assertThat((int) check.getValue()).isEqualTo(crc);
    assertThat(new String(content, StandardCharsets.US_ASCII)).contains("encrypted content");
  }

  @Test
  void theEncryptedZipEndsWithAConsistentCentralDirectory() {
    byte[] zip = SelfTestProbes.encryptedZip();
    ByteBuffer buffer = ByteBuffer.wrap(zip).order(ByteOrder.LITTLE_ENDIAN);
    int end = zip.length - 22;
    assertThat(buffer.getInt(end)).isEqualTo(0x06054b50);
    assertThat(buffer.getShort(end + 10)).isEqualTo((short) 1);
    int centralLength = buffer.getInt(end + 12);
    int centralStart = buffer.getInt(end + 16);
    assertThat(centralStart + centralLength).isEqualTo(end);
    assertThat(buffer.getInt(centralStart)).isEqualTo(0x02014b50);
    assertThat(buffer.getShort(centralStart + 8) & 1).isEqualTo(1);
  }

  @Test
  void theEncryptedZipIsTheArchiveTheSelfTestWasMadeWith() throws Exception {
    byte[] zip = SelfTestProbes.encryptedZip();
    assertThat(zip).hasSize(170);
    assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(zip)))
        .isEqualTo("a2e2f720c192bc667613c610eb08090b6e1aae0ded8aec54c4d02aafe82ccafc");
  }

  /** PKWARE traditional decryption, written from APPNOTE 6.1 independently of the writer. */
  private static byte[] decrypt(byte[] zip, int offset, int length, String password) {
    long[] keys = {0x12345678L, 0x23456789L, 0x34567890L};
    for (byte b : password.getBytes(StandardCharsets.UTF_8)) {
      update(keys, b & 0xff);
    }
    byte[] out = new byte[length];
    for (int i = 0; i < length; i++) {
      int temp = (int) ((keys[2] | 2) & 0xffff);
      int plain = (zip[offset + i] ^ ((temp * (temp ^ 1)) >>> 8)) & 0xff;
      update(keys, plain);
      out[i] = (byte) plain;
    }
    return out;
  }

  private static void update(long[] keys, int plain) {
    keys[0] = crc(keys[0], plain);
    keys[1] = ((keys[1] + (keys[0] & 0xff)) * 134775813L + 1) & 0xffffffffL;
    keys[2] = crc(keys[2], (int) (keys[1] >>> 24));
  }

  private static long crc(long crc, int b) {
    long c = (crc ^ b) & 0xff;
    for (int k = 0; k < 8; k++) {
      c = (c & 1) != 0 ? 0xedb88320L ^ (c >>> 1) : c >>> 1;
    }
    return (crc >>> 8) ^ c;
  }

  private static boolean contains(byte[] haystack, byte[] needle) {
    return new String(haystack, StandardCharsets.ISO_8859_1)
        .contains(new String(needle, StandardCharsets.ISO_8859_1));
  }
}
