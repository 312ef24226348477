package io.github.avgateway.jms.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.config.HistoryStreamProperties;
import io.github.avgateway.jms.broker.EmbeddedBroker;
import java.util.Map;
import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The consumer window of the gateway's connection factory (nothing connects here, and the embedded
 * broker is never started): 0 with an external broker unless {@code
 * avgateway.jms.consumer-window-size} says otherwise, whatever the URL says; Artemis' own default
 * for the embedded broker's in-VM consumers.
 */
class ConnectionFactoryTest {

  private static JmsProperties bind(Map<String, String> values) {
    return new Binder(new MapConfigurationPropertySource(values))
        .bindOrCreate("avgateway.jms", JmsProperties.class);
  }

  private static ActiveMQConnectionFactory factory(JmsProperties properties, boolean embedded) {
    StaticListableBeanFactory beans = new StaticListableBeanFactory();
    if (embedded) {
      HistoryStreamProperties history =
          new Binder(new MapConfigurationPropertySource(Map.of()))
              .bindOrCreate("avgateway.history", HistoryStreamProperties.class);
      beans.addBean("broker", new EmbeddedBroker(properties, history));
    }
    return new JmsGatewayAutoConfiguration()
        .avgatewayJmsConnectionFactory(properties, beans.getBeanProvider(EmbeddedBroker.class));
  }

  /** An external broker's factory, configured by one more property. */
  private static ActiveMQConnectionFactory external(String key, String value) {
    return factory(bind(Map.of("avgateway.jms.mode", "external", key, value)), false);
  }

  @Test
  void externalConsumersBufferNoRequestsByDefaultEvenWhenTheUrlAsksForAWindow() {
    try (ActiveMQConnectionFactory factory =
        external("avgateway.jms.url", "tcp://127.0.0.1:61616?consumerWindowSize=1048576")) {
      assertThat(factory.getConsumerWindowSize()).isZero();
    }
  }

  @Test
  void aConfiguredWindowReachesTheFactory() {
    try (ActiveMQConnectionFactory factory =
        external("avgateway.jms.consumer-window-size", "64KB")) {
      assertThat(factory.getConsumerWindowSize()).isEqualTo(64 * 1024);
    }
  }

  @Test
  void inVmConsumersKeepArtemisDefaultWindowUnlessConfigured() {
    try (ActiveMQConnectionFactory factory = factory(bind(Map.of()), true)) {
      assertThat(factory.getConsumerWindowSize())
          .isEqualTo(ActiveMQClient.DEFAULT_CONSUMER_WINDOW_SIZE);
    }
    JmsProperties zero = bind(Map.of("avgateway.jms.consumer-window-size", "0"));
    try (ActiveMQConnectionFactory factory = factory(zero, true)) {
      assertThat(factory.getConsumerWindowSize()).isZero();
    }
  }
}
