package io.github.avgateway.amqp.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.amqp.autoconfigure.RabbitProperties;
import org.springframework.util.unit.DataSize;

class InboundBodyLimitTest {

  @Test
  void takesABodyOfTheGatewaysLimitThoughTheClientsDefaultIsLower() {
    RabbitProperties rabbit = new RabbitProperties();
    assertThat(rabbit.getMaxInboundMessageBodySize()).isEqualTo(DataSize.ofMegabytes(64));
    assertThat(AmqpGatewayAutoConfiguration.inboundBodyLimit(rabbit, DataSize.ofMegabytes(100)))
        .isEqualTo(100 * 1024 * 1024 + 1);
  }

  @Test
  void aLargerConfiguredLimitStands() {
    RabbitProperties rabbit = new RabbitProperties();
    rabbit.setMaxInboundMessageBodySize(DataSize.ofMegabytes(200));
    assertThat(AmqpGatewayAutoConfiguration.inboundBodyLimit(rabbit, DataSize.ofMegabytes(100)))
        .isEqualTo(200 * 1024 * 1024);
  }

  @Test
  void aLimitBeyondTheClientsIntIsCapped() {
    assertThat(
            AmqpGatewayAutoConfiguration.inboundBodyLimit(
                new RabbitProperties(), DataSize.ofGigabytes(4)))
        .isEqualTo(Integer.MAX_VALUE);
  }
}
