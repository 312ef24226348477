package io.github.avgateway.amqp.config;

import java.util.List;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.beans.factory.DisposableBean;

/**
 * The consumers of the clean-pipe inboxes, one container per pipe, started and stopped with the
 * request consumers by the intake watcher; this holder initialises them and releases them when the
 * context closes (they are not beans of their own, since their number is configuration).
 *
 * @param containers one per pipe, in the order of {@code avgateway.amqp.pipes}
 */
public record PipeContainers(List<SimpleMessageListenerContainer> containers)
    implements DisposableBean {

  public PipeContainers {
    containers = List.copyOf(containers);
    containers.forEach(SimpleMessageListenerContainer::afterPropertiesSet);
  }

  @Override
  public void destroy() {
    containers.forEach(SimpleMessageListenerContainer::destroy);
  }
}
