package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.EngineVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class EngineVersionCacheTest {

  @Test
  void officialSignaturesGiveEngineAndSignatureVersion() {
    assertThat(EngineVersionCache.parse("ClamAV 1.4.6/27451/Sun Nov 22 08:14:00 2026"))
        .isEqualTo(new EngineVersion("ClamAV 1.4.6", "27451"));
  }

  @Test
  void customSignaturesOnlyGiveAnEmptySignatureVersion() {
    assertThat(EngineVersionCache.parse("ClamAV 1.4.6"))
        .isEqualTo(new EngineVersion("ClamAV 1.4.6", ""));
  }

  @Test
  void aSignatureVersionThatIsNotANumberIsDropped() {
    assertThat(EngineVersionCache.parse("ClamAV 1.4.6/abc/date"))
        .isEqualTo(new EngineVersion("ClamAV 1.4.6", ""));
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"PONG", "ClamAV", "ClamAV /27451/date", "UNKNOWN COMMAND", "stream: OK"})
  void anythingElseIsUnknown(String reply) {
    assertThat(EngineVersionCache.parse(reply)).isEqualTo(EngineVersion.UNKNOWN);
  }

  @Test
  void theCacheKeepsTheLastGoodVersion() {
    EngineVersionCache cache = new EngineVersionCache();
    assertThat(cache.isUnknown()).isTrue();
    cache.update("ClamAV 1.4.6/27451/date");
    cache.update("UNKNOWN COMMAND");
    assertThat(cache.current()).isEqualTo(new EngineVersion("ClamAV 1.4.6", "27451"));
    cache.update("ClamAV 1.4.6/27452/date");
    assertThat(cache.current().signatureVersion()).isEqualTo("27452");
  }
}
