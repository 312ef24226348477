package io.github.avgateway.jms.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.ConfigurationPropertiesAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

class JmsPropertiesTest {

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(JmsProperties.class)
  static class PropertiesOnly {}

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ConfigurationPropertiesAutoConfiguration.class))
          .withUserConfiguration(PropertiesOnly.class);

  private static JmsProperties bind(Map<String, String> values) {
    return new Binder(new MapConfigurationPropertySource(values))
        .bindOrCreate("avgateway.jms", JmsProperties.class);
  }

  @Test
  void defaultsAreTheEmbeddedSingleMachineRun() {
    JmsProperties properties = bind(Map.of());

    assertThat(properties.mode()).isEqualTo(JmsProperties.BrokerMode.EMBEDDED);
    assertThat(properties.url()).isEqualTo("tcp://127.0.0.1:61616");
    assertThat(properties.requestQueue()).isEqualTo("av.scan.requests");
    assertThat(properties.deadLetterQueue()).isEqualTo("av.scan.dead-letters");
    assertThat(properties.defaultReplyQueue()).isNull();
    assertThat(properties.consumers()).isEqualTo(4);
    assertThat(properties.batchSize()).isEqualTo(32);
    assertThat(properties.consumerWindowSize()).isNull();
    assertThat(properties.maxDeliveryAttempts()).isEqualTo(5);
    assertThat(properties.embedded().dataDir()).isEqualTo(Path.of("data/artemis"));
    assertThat(properties.embedded().persistent()).isTrue();
    assertThat(properties.embedded().journal()).isEqualTo(JmsProperties.JournalMode.NIO);
    assertThat(properties.embedded().autoCreateQueues()).isFalse();
    assertThat(properties.embedded().minDiskFree()).isEqualTo(DataSize.ofGigabytes(2));
    assertThat(properties.embedded().protocols())
        .containsExactly(
            JmsProperties.ClientProtocol.CORE,
            JmsProperties.ClientProtocol.AMQP,
            JmsProperties.ClientProtocol.STOMP);
    assertThat(properties.pauseHoldTime()).isEqualTo(Duration.ofMinutes(5));
    assertThat(properties.compiledReplyQueuePattern().matcher("av.reply.billing").matches())
        .isTrue();
    assertThat(properties.compiledReplyQueuePattern().matcher("orders").matches()).isFalse();
  }

  @Test
  void kebabCaseKeysBind() {
    JmsProperties properties =
        bind(
            Map.of(
                "avgateway.jms.mode", "external",
                "avgateway.jms.url", "tcp://broker:61617",
                "avgateway.jms.default-reply-queue", "replies",
                "avgateway.jms.batch-size", "4",
                "avgateway.jms.consumer-window-size", "64KB",
                "avgateway.jms.pause-hold-time", "90s",
                "avgateway.jms.reply-queue-pattern", "replies\\..+",
                "avgateway.jms.embedded.journal", "mapped",
                "avgateway.jms.embedded.protocols", "core, stomp"));

    assertThat(properties.mode()).isEqualTo(JmsProperties.BrokerMode.EXTERNAL);
    assertThat(properties.url()).isEqualTo("tcp://broker:61617");
    assertThat(properties.defaultReplyQueue()).isEqualTo("replies");
    assertThat(properties.batchSize()).isEqualTo(4);
    assertThat(properties.consumerWindowSize()).isEqualTo(DataSize.ofKilobytes(64));
    assertThat(properties.pauseHoldTime()).isEqualTo(Duration.ofSeconds(90));
    assertThat(properties.replyQueuePattern()).isEqualTo("replies\\..+");
    assertThat(properties.embedded().journal()).isEqualTo(JmsProperties.JournalMode.MAPPED);
    assertThat(properties.embedded().protocols())
        .containsExactly(JmsProperties.ClientProtocol.CORE, JmsProperties.ClientProtocol.STOMP);
  }

  @Test
  void passwordNeverAppearsInToString() {
    JmsProperties properties =
        bind(Map.of("avgateway.jms.user", "gw", "avgateway.jms.password", "s3cret-value"));

    assertThat(properties.toString()).doesNotContain("s3cret-value").contains("user=gw");
  }

  @Test
  void invalidValuesStopTheApplication() {
    runner
        .withPropertyValues(
            "avgateway.jms.consumers=0",
            "avgateway.jms.consumer-window-size=-1B",
            "avgateway.jms.request-queue= ",
            "avgateway.jms.reply-queue-pattern=av.reply.(",
            "avgateway.jms.embedded.protocols=",
            "avgateway.jms.embedded.min-disk-free=-1MB")
        .run(context ->
            assertThat(context)
                .getFailure()
                .rootCause()
                .hasMessageContaining("consumers")
                .hasMessageContaining("consumer-window-size")
                .hasMessageContaining("requestQueue")
                .hasMessageContaining("reply-queue-pattern")
                .hasMessageContaining("protocols")
                .hasMessageContaining("min-disk-free"));
  }
}
