package io.github.avgateway.solr.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.avgateway.solr.TimeRouting;
import io.github.avgateway.solr.config.SolrHistoryProperties.Mode;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class SolrHistoryPropertiesTest {

  private static SolrHistoryProperties bind(Map<String, String> values) {
    return new Binder(new MapConfigurationPropertySource(values))
        .bindOrCreate("avgateway.solr", SolrHistoryProperties.class);
  }

  @Test
  void defaultsAreEmbeddedUnderDataSolrWithBatchingAndThirtyDaysRetention() {
    SolrHistoryProperties properties = bind(Map.of());

    assertThat(properties.mode()).isEqualTo(Mode.EMBEDDED);
    assertThat(properties.collection()).isEqualTo("history");
    assertThat(properties.embedded().home().normalize()).isEqualTo(Path.of("data/solr"));
    assertThat(properties.commitWithin()).isEqualTo(Duration.ofSeconds(1));
    assertThat(properties.requestTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(properties.queryTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(properties.batch().size()).isEqualTo(1_000);
    assertThat(properties.batch().concurrency()).isEqualTo(4);
    assertThat(properties.batch().queueCapacity()).isEqualTo(5_000);
    assertThat(properties.retention().enabled()).isTrue();
    assertThat(properties.retention().maxAge()).isEqualTo(Duration.ofDays(30));
    assertThat(properties.hasCredentials()).isFalse();
  }

  @Test
  void kebabCaseKeysBindEveryMode() {
    SolrHistoryProperties properties =
        bind(
            Map.of(
                "avgateway.solr.mode", "cloud",
                "avgateway.solr.cloud.zk-hosts", "zk1:2181,zk2:2181",
                "avgateway.solr.cloud.zk-chroot", "/solr",
                "avgateway.solr.cloud.shards", "2",
                "avgateway.solr.http.base-url", "http://127.0.0.1:8983/solr",
                "avgateway.solr.batch.max-delay", "5ms",
                "avgateway.solr.retention.max-age", "7d"));

    assertThat(properties.mode()).isEqualTo(Mode.CLOUD);
    assertThat(properties.cloud().zkHosts()).containsExactly("zk1:2181", "zk2:2181");
    assertThat(properties.cloud().zkChroot()).isEqualTo("/solr");
    assertThat(properties.cloud().shards()).isEqualTo(2);
    assertThat(properties.cloud().solrUrls()).isEqualTo(List.of());
    assertThat(properties.http().baseUrl()).isEqualTo(URI.create("http://127.0.0.1:8983/solr"));
    assertThat(properties.batch().maxDelay()).isEqualTo(Duration.ofMillis(5));
    assertThat(properties.retention().maxAge()).isEqualTo(Duration.ofDays(7));
  }

  @Test
  void thePasswordNeverAppearsInToString() {
    SolrHistoryProperties properties =
        bind(
            Map.of(
                "avgateway.solr.username", "gateway",
                "avgateway.solr.password", "s3cret-value"));

    assertThat(properties.hasCredentials()).isTrue();
    assertThat(properties.toString()).contains("gateway").doesNotContain("s3cret-value");
  }

  @Test
  void timeRoutingIsOffByDefaultAndTakesItsRetentionFromMaxAge() {
    SolrHistoryProperties defaults = bind(Map.of());
    assertThat(defaults.cloud().timeRouted().enabled()).isFalse();
    assertThat(defaults.timeRouting().autoDeleteAge()).isEqualTo("-32DAYS");

    SolrHistoryProperties properties =
        bind(
            Map.of(
                "avgateway.solr.mode", "cloud",
                "avgateway.solr.cloud.zk-hosts", "zk1:2181",
                "avgateway.solr.cloud.time-routed.enabled", "true",
                "avgateway.solr.cloud.time-routed.interval", "6h",
                "avgateway.solr.cloud.time-routed.preemptive-create-window", "0s",
                "avgateway.solr.retention.max-age", "2d"));

    TimeRouting routing = properties.timeRouting();
    assertThat(routing.intervalMath()).isEqualTo("+6HOURS");
    assertThat(routing.maxFuture()).isEqualTo(Duration.ofMinutes(10));
    assertThat(routing.autoDeleteAge()).isEqualTo("-60HOURS");
    assertThat(properties.toString()).contains("timeRouted=TimeRouted[enabled=true, interval=PT6H");
  }

  @Test
  void timeRoutingOutsideCloudModeOrWithSettingsSolrCannotUseFailsNamingTheKeys() {
    assertThatThrownBy(() -> bind(Map.of("avgateway.solr.cloud.time-routed.enabled", "true")))
        .rootCause()
        .hasMessageContaining("avgateway.solr.mode=cloud");
    assertThatThrownBy(() ->
            bind(
                Map.of(
                    "avgateway.solr.mode", "cloud",
                    "avgateway.solr.cloud.solr-urls", "http://127.0.0.1:8983/solr",
                    "avgateway.solr.cloud.time-routed.enabled", "true",
                    "avgateway.solr.cloud.time-routed.interval", "90s")))
        .rootCause()
        .hasMessageContaining("avgateway.solr.cloud.time-routed")
        .hasMessageContaining("whole minutes");
  }
}
