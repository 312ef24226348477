package io.github.avgateway.solr.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.port.HistoryRecorder;
import io.github.avgateway.core.port.HistoryStoreGate;
import io.github.avgateway.solr.HistoryDocs;
import io.github.avgateway.solr.SolrHistoryGate;
import io.github.avgateway.solr.SolrRetention;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The auto-configuration in its default (embedded) mode, as a front-end application gets it. */
class SolrHistoryAutoConfigurationIT {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(SolrHistoryAutoConfiguration.class));

  @TempDir Path dir;

  @Test
  void embeddedModeRecordsAndKeepsHistoryAcrossRestarts() {
    Path home = dir.resolve("data/solr");
    MessageInfo doc =
        HistoryDocs.clean("autoconfig", "auto-1", Instant.now().truncatedTo(ChronoUnit.MILLIS));
    runner
        .withPropertyValues("avgateway.solr.embedded.home=" + home)
        .run(context -> {
          assertThat(context).hasSingleBean(HistoryRecorder.class);
          assertThat(context).hasSingleBean(HistoryQueries.class);
          assertThat(context).hasSingleBean(SolrRetention.class);
          HistoryStoreGate gate = context.getBean("solrHistoryGate", HistoryStoreGate.class);
          assertThat(gate).isInstanceOf(SolrHistoryGate.class);
          context.getBean(HistoryRecorder.class).record(doc).get(30, TimeUnit.SECONDS);
          assertThat(context.getBean(HistoryQueries.class).byRequestId("amqp", "auto-1"))
              .contains(doc);
          assertThat(gate.accepting()).isEqualTo(Availability.up());
        });
    assertThat(
            Files.exists(
                home.resolve(
                    "configsets/"
                        + io.github.avgateway.solr.HistoryConfigset.NAME
                        + "/conf/schema.xml")))
        .isTrue();

    runner
        .withPropertyValues(
            "avgateway.solr.embedded.home=" + home, "avgateway.solr.retention.enabled=false")
        .run(context -> {
          assertThat(context).doesNotHaveBean(SolrRetention.class);
          assertThat(context.getBean(HistoryQueries.class).byRequestId("amqp", "auto-1"))
              .contains(doc);
        });
  }

  @Test
  void disabledMeansNoBeans() {
    runner
        .withPropertyValues("avgateway.solr.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(HistoryRecorder.class));
  }

  @Test
  void httpModeWithoutABaseUrlFailsAtStartupWithTheKeyToSet() {
    runner
        .withPropertyValues("avgateway.solr.mode=http")
        .run(context ->
            assertThat(context)
                .getFailure()
                .rootCause()
                .hasMessageContaining("avgateway.solr.http.base-url"));
  }
}
