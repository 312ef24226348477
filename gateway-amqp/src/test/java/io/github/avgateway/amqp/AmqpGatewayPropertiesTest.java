package io.github.avgateway.amqp;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.amqp.config.AmqpGatewayProperties;
import io.github.avgateway.amqp.config.AmqpGatewayProperties.QueueType;
import io.github.avgateway.core.pipe.Pipe;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

public class AmqpGatewayPropertiesTest {

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(AmqpGatewayProperties.class)
  static class PropertiesOnly {}

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner().withUserConfiguration(PropertiesOnly.class);

  /** The properties with every default. */
  /** The properties as bound with nothing set (shared with the reply-destination policy test). */
  public static AmqpGatewayProperties defaults() {
    AmqpGatewayProperties[] bound = new AmqpGatewayProperties[1];
    new ApplicationContextRunner()
        .withUserConfiguration(PropertiesOnly.class)
        .run(context -> bound[0] = context.getBean(AmqpGatewayProperties.class));
    return bound[0];
  }

  @Test
  void defaultsAreSafeAndConsistent() {
    AmqpGatewayProperties p = defaults();
    assertThat(p.requestQueue()).isEqualTo("av.scan.requests");
    assertThat(p.queueType()).isEqualTo(QueueType.QUORUM);
    assertThat(p.deadLetterExchange()).isEqualTo("av.scan.dlx");
    assertThat(p.deadLetterQueue()).isEqualTo("av.scan.dead-letters");
    assertThat(p.deliveryLimit()).isEqualTo(20);
    assertThat(p.prefetch()).isGreaterThanOrEqualTo(p.batchSize());
    assertThat(p.batchWait()).isLessThanOrEqualTo(Duration.ofMillis(10));
    assertThat(p.defaultReplyQueueOrNull()).isNull();
    assertThat(p.declareTopology()).isTrue();
  }

  @Test
  void kebabCaseKeysBind() {
    runner
        .withPropertyValues(
            "avgateway.amqp.request-queue=in",
            "avgateway.amqp.queue-type=classic",
            "avgateway.amqp.default-reply-queue=out",
            "avgateway.amqp.batch-size=4",
            "avgateway.amqp.batch-wait=2ms",
            "avgateway.amqp.confirm-timeout=3s")
        .run(context -> {
          AmqpGatewayProperties p = context.getBean(AmqpGatewayProperties.class);
          assertThat(p.requestQueue()).isEqualTo("in");
          assertThat(p.queueType()).isEqualTo(QueueType.CLASSIC);
          assertThat(p.defaultReplyQueueOrNull()).isEqualTo("out");
          assertThat(p.batchSize()).isEqualTo(4);
          assertThat(p.batchWait()).isEqualTo(Duration.ofMillis(2));
          assertThat(p.confirmTimeout()).isEqualTo(Duration.ofSeconds(3));
        });
  }

  @Test
  void invalidValuesStopTheApplication() {
    runner
        .withPropertyValues("avgateway.amqp.reply-to-pattern=[unclosed")
        .run(context -> assertThat(context).hasFailed());
    runner
        .withPropertyValues("avgateway.amqp.prefetch=2", "avgateway.amqp.batch-size=8")
        .run(context -> assertThat(context).hasFailed());
    runner
        .withPropertyValues("avgateway.amqp.consumers=0")
        .run(context -> assertThat(context).hasFailed());
    runner
        .withPropertyValues("avgateway.amqp.dead-letter-queue=av.scan.requests")
        .run(context -> assertThat(context).hasFailed());
  }

  @Test
  void pipesBindAndNoneIsTheDefault() {
    assertThat(defaults().pipes()).isEmpty();
    runner
        .withPropertyValues(pipe(0, "uploads.in", "uploads.clean"))
        .withPropertyValues(pipe(1, "scans.in", "scans.clean"))
        .run(context -> {
          AmqpGatewayProperties p = context.getBean(AmqpGatewayProperties.class);
          assertThat(p.pipes())
              .containsExactly(
                  new Pipe("uploads.in", "uploads.clean", "q.uploads.in", "r.uploads.in"),
                  new Pipe("scans.in", "scans.clean", "q.scans.in", "r.scans.in"));
          assertThat(p.pipeQueueNames()).hasSize(8);
        });
  }

  @Test
  void aPipeClashingWithTheGatewaysQueuesOrAnotherPipeStopsTheApplication() {
    runner
        .withPropertyValues(pipe(0, "av.scan.requests", "c"))
        .run(context -> assertThat(context).hasFailed());
    runner
        .withPropertyValues(pipe(0, "in", "av.scan.dead-letters"))
        .run(context -> assertThat(context).hasFailed());
    runner
        .withPropertyValues(pipe(0, "in", "c1"))
        .withPropertyValues(pipe(1, "in", "c2"))
        .run(context -> assertThat(context).hasFailed());
    runner
        .withPropertyValues(pipe(0, "in", "in"))
        .run(context ->
            assertThat(context)
                .hasFailed()
                .getFailure()
                .hasStackTraceContaining("four different queues"));
    runner
        .withPropertyValues("avgateway.amqp.pipes[0].inbox=in")
        .run(context -> assertThat(context).hasFailed());
  }

  /** Properties of pipe {@code i}: quarantine and rejected named after the inbox. */
  private static String[] pipe(int i, String inbox, String clean) {
    String prefix = "avgateway.amqp.pipes[" + i + "].";
    return new String[] {
      prefix + "inbox=" + inbox,
      prefix + "clean=" + clean,
      prefix + "quarantine=q." + inbox,
      prefix + "rejected=r." + inbox
    };
  }
}
