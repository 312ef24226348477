package io.github.avgateway.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class PayloadsTest {

  @Test
  void sizesParseWithUnits() {
    assertThat(Payloads.parseSize("1024")).isEqualTo(1024);
    assertThat(Payloads.parseSize("64k")).isEqualTo(65536);
    assertThat(Payloads.parseSize("1MiB")).isEqualTo(1024 * 1024);
    assertThat(Payloads.parseSize("10m")).isEqualTo(10 * 1024 * 1024);
    assertThat(Payloads.label(10 * 1024 * 1024)).isEqualTo("10 MiB");
    assertThat(Payloads.label(65536)).isEqualTo("64 KiB");
  }

  @Test
  void randomPayloadsAreRepeatableAndOfTheirSize() {
    assertThat(Payloads.random(1000, 1)).hasSize(1000).isEqualTo(Payloads.random(1000, 1));
    assertThat(Payloads.random(1000, 1)).isNotEqualTo(Payloads.random(1000, 2));
  }

  @Test
  void eicarIsTheStandardTestFile() throws Exception {
    byte[] eicar = Payloads.eicar();
    assertThat(eicar).hasSize(68);
    byte[] md5 = MessageDigest.getInstance("MD5").digest(eicar);
    assertThat(HexFormat.of().formatHex(md5)).isEqualTo("44d88612fea8a8f36de82e1278abb02f");
    assertThat(new String(eicar, StandardCharsets.US_ASCII)).startsWith("X5O!P%@AP");
  }
}
