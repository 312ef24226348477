package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.testing.PrivateClamd;
import io.github.avgateway.core.testing.TestEnv;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The self-test against clamds configured well and badly. */
class ClamdSelfTestIT {

  private static Availability selfTest(ClamdEndpoint endpoint) {
    try (ClamdScanner scanner = ClamdScanner.start(ItEnv.settings(endpoint).build())) {
      return new ClamdSelfTest(scanner).run();
    }
  }

  @Test
  void passesAgainstTheProjectsClamd() {
    ItEnv.requireSharedClamd();
    assertThat(selfTest(ItEnv.sharedClamd())).isEqualTo(Availability.up());
  }

  @Test
  void saysToSetAlertEncryptedWhenClamdLetsEncryptedArchivesPass() throws Exception {
    Map<String, String> noEncryptionAlerts =
        Map.of("AlertEncrypted", "no", "AlertEncryptedArchive", "no", "AlertEncryptedDoc", "no");
    try (PrivateClamd clamd = PrivateClamd.start(noEncryptionAlerts)) {
      assertThat(selfTest(clamd.endpoint()))
          .isInstanceOfSatisfying(
              Availability.Down.class,
              down ->
                  assertThat(down.why())
                      .contains(
                          "clamd does not alert on encrypted archives: set AlertEncrypted yes")
                      .contains("was CLEAN, expected UNSCANNABLE ENCRYPTED")
                      .doesNotContain("AlertExceedsMax"));
    }
  }

  @Test
  void saysToSetAlertExceedsMaxWhenClamdLetsDeepArchivesPass() throws Exception {
    try (PrivateClamd clamd = PrivateClamd.start(Map.of("AlertExceedsMax", "no"))) {
      assertThat(selfTest(clamd.endpoint()))
          .isInstanceOfSatisfying(
              Availability.Down.class,
              down ->
                  assertThat(down.why())
                      .contains("set AlertExceedsMax yes")
                      .contains("expected UNSCANNABLE LIMITS_EXCEEDED")
                      .doesNotContain("AlertEncrypted"));
    }
  }

  @Test
  void saysClamdCannotScanWhenNothingAnswers() {
    ClamdEndpoint dead = new ClamdEndpoint("127.0.0.1", ItEnv.freePort());
    assertThat(selfTest(dead))
        .isInstanceOfSatisfying(
            Availability.Down.class,
            down ->
                assertThat(down.why())
                    .startsWith("clamd cannot scan the EICAR test file")
                    .contains(dead.toString()));
  }

  @Test
  void noSourceFileHoldsTheEicarStringWhole() throws IOException {
    String eicar = new String(SelfTestProbes.eicar(), StandardCharsets.US_ASCII);
    Path module = TestEnv.repo().resolve("gateway-core/src");
    try (Stream<Path> files = Files.walk(module)) {
      List<Path> holding =
          files.filter(Files::isRegularFile).filter(f -> contains(f, eicar)).toList();
      assertThat(holding).isEmpty();
    }
  }

  private static boolean contains(Path file, String text) {
    try {
      return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains(text);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
