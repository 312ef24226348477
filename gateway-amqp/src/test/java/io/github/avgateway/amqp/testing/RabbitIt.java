package io.github.avgateway.amqp.testing;

import java.util.Locale;
import java.util.UUID;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;

/**
 * The real RabbitMQ of the integration tests: 127.0.0.1 on the port Failsafe passes as {@code
 * avgateway.it.rabbitmq.port} (5672 by default), guest/guest. A test that cannot reach it fails;
 * nothing is skipped.
 */
public final class RabbitIt {

  private RabbitIt() {}

  public static int port() {
    return Integer.getInteger("avgateway.it.rabbitmq.port", 5672);
  }

  /** A fresh connection factory of the test itself (not the gateway's), returns enabled. */
  public static CachingConnectionFactory connectionFactory() {
    return connectionFactory(port());
  }

  public static CachingConnectionFactory connectionFactory(int port) {
    return guest(new CachingConnectionFactory("127.0.0.1", port));
  }

  /**
   * A connection factory of the test itself on the nodes of {@code addresses} ({@code host:port,…},
   * as {@code spring.rabbitmq.addresses}), tried in that order.
   */
  public static CachingConnectionFactory connectionFactory(String addresses) {
    CachingConnectionFactory factory = new CachingConnectionFactory();
    factory.setAddresses(addresses);
    return guest(factory);
  }

  private static CachingConnectionFactory guest(CachingConnectionFactory factory) {
    factory.setUsername("guest");
    factory.setPassword("guest");
    factory.setPublisherReturns(true);
    return factory;
  }

  /** A suffix that makes queue names unique to one test run. */
  public static String uniqueSuffix() {
    return UUID.randomUUID().toString().substring(0, 8).toLowerCase(Locale.ROOT);
  }
}
