package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.activemq.artemis.jms.client.ActiveMQDestination;
import org.junit.jupiter.api.Test;

class ConsumerSessionTest {

  private final List<String> asked = new ArrayList<>();

  private QueueLookup holding(String... queues) {
    return queue -> {
      asked.add(queue);
      return List.of(queues).contains(queue);
    };
  }

  @Test
  void aQueueTheBrokerHoldsIsSentWithoutTheClientAskingIt() {
    ActiveMQDestination replyTo = ActiveMQDestination.createQueue("av.reply.orders");

    assertThat(ConsumerSession.known(replyTo, holding("av.reply.orders"))).isSameAs(replyTo);

    assertThat(replyTo.isCreated()).isTrue();
    assertThat(asked).containsExactly("av.reply.orders");
  }

  @Test
  void aQueueTheLookupDoesNotFindIsLeftToTheClientsChecks() {
    ActiveMQDestination replyTo = ActiveMQDestination.createQueue("av.reply.gone");

    assertThat(ConsumerSession.known(replyTo, holding("av.reply.orders"))).isSameAs(replyTo);
    assertThat(ConsumerSession.known(replyTo, QueueLookup.REMOTE)).isSameAs(replyTo);

    assertThat(replyTo.isCreated()).isFalse();
  }

  @Test
  void topicsAndDestinationsAlreadyCheckedAreNotLookedUp() {
    ActiveMQDestination topic = ActiveMQDestination.createTopic("av.reply.orders");
    ActiveMQDestination checked = ActiveMQDestination.createQueue("av.reply.orders");
    checked.setCreated(true);

    ConsumerSession.known(topic, holding("av.reply.orders"));
    ConsumerSession.known(checked, holding("av.reply.orders"));

    assertThat(topic.isCreated()).isFalse();
    assertThat(asked).isEmpty();
  }
}
