package io.github.avgateway.amqp.config;

import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory.ConfirmType;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Switches on correlated publisher confirms and returns on every {@link CachingConnectionFactory}
 * (and so on its publisher connection): the gateway acknowledges a request only after the broker
 * confirmed its reply, and notices an unroutable reply only through a return.
 */
final class PublisherConfirmsPostProcessor implements BeanPostProcessor {

  @Override
  public Object postProcessBeforeInitialization(Object bean, String beanName) {
    if (bean instanceof CachingConnectionFactory factory) {
      factory.setPublisherConfirmType(ConfirmType.CORRELATED);
      factory.setPublisherReturns(true);
    }
    return bean;
  }
}
