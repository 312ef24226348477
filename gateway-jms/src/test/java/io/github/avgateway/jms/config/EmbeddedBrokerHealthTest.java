package io.github.avgateway.jms.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

class EmbeddedBrokerHealthTest {

  private static JmsProperties.Embedded embedded(String dataDir) {
    return new Binder(
            new MapConfigurationPropertySource(
                Map.of(
                    "avgateway.jms.embedded.data-dir",
                    dataDir,
                    "avgateway.jms.embedded.min-disk-free",
                    "3GB")))
        .bindOrCreate("avgateway.jms", JmsProperties.class)
        .embedded();
  }

  @Test
  void downWithTheReasonWhileTheBrokerBlocksForDisk() {
    Health health =
        JmsGatewayAutoConfiguration.embeddedBrokerHealth(true, embedded("target/no-such/artemis"));

    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
    assertThat(health.getDetails())
        .containsEntry("minDiskFreeBytes", 3L * 1024 * 1024 * 1024)
        .containsKey("diskFreeBytes");
    assertThat((String) health.getDetails().get("reason"))
        .contains("min-disk-free")
        .contains("blocks every producer");
    assertThat((String) health.getDetails().get("dataDir")).endsWith("no-such/artemis");
  }

  @Test
  void upWithoutAReasonOtherwise() {
    Health health = JmsGatewayAutoConfiguration.embeddedBrokerHealth(false, embedded("target"));

    assertThat(health.getStatus()).isEqualTo(Status.UP);
    assertThat(health.getDetails()).doesNotContainKey("reason");
    assertThat((Long) health.getDetails().get("diskFreeBytes")).isPositive();
  }
}
