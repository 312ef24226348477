package io.github.avgateway.jms.intake;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.activemq.artemis.jms.client.ActiveMQDestination;
import org.junit.jupiter.api.Test;

class KnownQueuesTest {

  private final List<String> asked = new ArrayList<>();

  private QueueLookup holding(String... queues) {
    return queue -> {
      asked.add(queue);
      return List.of(queues).contains(queue);
    };
  }

  /** A new destination object for {@code queue}, as each request's JMSReplyTo is. */
  private static ActiveMQDestination replyTo(String queue) {
    return ActiveMQDestination.createQueue(queue);
  }

  /** What the client's own checks do to a destination whose queue they found. */
  private static ActiveMQDestination checkedByTheClient(ActiveMQDestination destination) {
    destination.setCreated(true);
    return destination;
  }

  @Test
  void aQueueTheBrokerHoldsIsSentWithoutTheClientAskingIt() {
    KnownQueues known = new KnownQueues(holding("av.reply.orders"));
    ActiveMQDestination destination = replyTo("av.reply.orders");

    assertThat(known.beforeSend(destination)).isSameAs(destination);

    assertThat(destination.isCreated()).isTrue();
    assertThat(asked).containsExactly("av.reply.orders");
  }

  @Test
  void aQueueNeitherLookedUpNorCheckedIsLeftToTheClientsChecks() {
    KnownQueues known = new KnownQueues(holding("av.reply.orders"));
    ActiveMQDestination gone = replyTo("av.reply.gone");
    ActiveMQDestination remote = replyTo("av.reply.orders");

    known.beforeSend(gone);
    new KnownQueues(QueueLookup.REMOTE).beforeSend(remote);

    assertThat(gone.isCreated()).isFalse();
    assertThat(remote.isCreated()).isFalse();
  }

  @Test
  void aQueueTheClientCheckedIsKnownForTheRestOfTheTransactionOnly() {
    KnownQueues known = new KnownQueues(QueueLookup.REMOTE);
    known.sent(checkedByTheClient(replyTo("av.reply.orders")));

    ActiveMQDestination sameBatch = replyTo("av.reply.orders");
    ActiveMQDestination otherQueue = replyTo("av.reply.invoices");
    known.beforeSend(sameBatch);
    known.beforeSend(otherQueue);
    known.transactionEnded();
    ActiveMQDestination nextBatch = replyTo("av.reply.orders");
    known.beforeSend(nextBatch);

    assertThat(sameBatch.isCreated()).isTrue();
    assertThat(otherQueue.isCreated()).isFalse();
    assertThat(nextBatch.isCreated()).as("not remembered past the transaction").isFalse();
  }

  /** The embedded broker's answer is final: a queue gone since an earlier send is not known. */
  @Test
  void theBrokersAnswerWinsOverAnEarlierSendOfTheTransaction() {
    List<String> queues = new ArrayList<>(List.of("av.reply.orders"));
    KnownQueues known = new KnownQueues(queues::contains);
    ActiveMQDestination first = replyTo("av.reply.orders");
    known.sent(known.beforeSend(first));
    queues.clear(); // deleted in the broker

    ActiveMQDestination second = replyTo("av.reply.orders");
    known.beforeSend(second);

    assertThat(first.isCreated()).isTrue();
    assertThat(second.isCreated()).as("left to the client's checks, which refuse it").isFalse();
  }

  @Test
  void aSendTheClientRefusedIsNotRemembered() {
    KnownQueues known = new KnownQueues(QueueLookup.REMOTE);
    ActiveMQDestination refused = replyTo("av.reply.gone");
    known.beforeSend(refused);
    known.sent(refused); // unmarked: the client's checks did not find the queue

    ActiveMQDestination next = replyTo("av.reply.gone");
    known.beforeSend(next);

    assertThat(next.isCreated()).isFalse();
  }

  @Test
  void topicsAndDestinationsAlreadyCheckedAreNotLookedUp() {
    KnownQueues known = new KnownQueues(holding("av.reply.orders"));
    ActiveMQDestination topic = ActiveMQDestination.createTopic("av.reply.orders");

    known.beforeSend(topic);
    known.beforeSend(checkedByTheClient(replyTo("av.reply.orders")));
    known.sent(topic);

    assertThat(topic.isCreated()).isFalse();
    assertThat(asked).isEmpty();
  }
}
