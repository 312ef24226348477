package io.github.avgateway.solr;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.port.TimeRange;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SolrSyntaxTest {

  @Test
  void rangesAreHalfOpenAtMillisecondPrecision() {
    TimeRange range =
        new TimeRange(
            Instant.parse("2026-01-01T00:00:00.123456Z"), Instant.parse("2026-01-02T00:00:00Z"));

    assertThat(SolrSyntax.range("receivedAt", range))
        .isEqualTo("receivedAt:[2026-01-01T00:00:00.123Z TO 2026-01-02T00:00:00Z}");
    assertThat(SolrSyntax.before("receivedAt", range.to()))
        .isEqualTo("receivedAt:[* TO 2026-01-02T00:00:00Z}");
  }

  @Test
  void termValuesNeedNoEscaping() {
    assertThat(SolrSyntax.term("sha256", "a:b (c)")).isEqualTo("{!term f=sha256}a:b (c)");
  }
}
