package io.github.avgateway.amqp.fault;

import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.GetResponse;
import io.github.avgateway.amqp.reply.AmqpReplyPublisher;
import io.github.avgateway.amqp.reply.PublishOutcome;
import io.github.avgateway.amqp.testing.RabbitIt;
import io.github.avgateway.core.fault.Expected;
import io.github.avgateway.core.fault.FaultLedger;
import io.github.avgateway.core.fault.FaultPayloads.Payload;
import io.github.avgateway.core.fault.Outcome;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.WireNames;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.springframework.amqp.AmqpException;
import org.springframework.amqp.core.AcknowledgeMode;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory.ConfirmType;
import org.springframework.amqp.rabbit.connection.CorrelationData;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;

/**
 * The callers of a fault run, on the private node directly (never through the gateway's proxy):
 * publishes requests with publisher confirms (a request counts as confirmed only once the broker
 * confirmed it), reads a reply queue and the gateway's dead-letter queue, and passes everything to
 * the scenario's {@link FaultLedger}, keyed by correlation id. The reply queue is a quorum queue so
 * that an answer handed out again after the node was killed always comes marked {@code redelivered}
 * (its delivery count is in the queue's log), and is then counted as seen again, not as a second
 * answer of the gateway: a caller's acknowledgement lost with the node is no fault of the
 * gateway's.
 */
public final class FaultClient implements AutoCloseable {

  public static final String REPLY_QUEUE = "av.reply.fault";

  private final CachingConnectionFactory factory;
  private final RabbitTemplate template;
  private final RabbitAdmin admin;
  private final String requestQueue;
  private final SimpleMessageListenerContainer replies;
  private final SimpleMessageListenerContainer deadLetters;
  private volatile FaultLedger ledger = new FaultLedger("none");
  private volatile Consumer<Message> deadLetterObserver = message -> {};
  private final AtomicInteger nacks = new AtomicInteger();

  /** Publishes requests on a kept channel that a nack retires; null: through the template. */
  private final AmqpReplyPublisher channels;

  public FaultClient(int port, String requestQueue, String deadLetterQueue) {
    this(RabbitIt.connectionFactory(port), requestQueue, deadLetterQueue, false);
  }

  /**
   * A client on {@code factory} (e.g. every node of a cluster); it closes the factory. With {@code
   * newChannelAfterNack}, requests go out as the gateway publishes its replies ({@link
   * AmqpReplyPublisher}'s kept channel, not used again once the broker nacked on it) instead of
   * through Spring AMQP's template, whose cached channels RabbitMQ 3.10 may keep nacking after a
   * quorum queue's leader died (docs/reliability.md, "Clusters").
   */
  public FaultClient(
      CachingConnectionFactory factory,
      String requestQueue,
      String deadLetterQueue,
      boolean newChannelAfterNack) {
    this.factory = factory;
    factory.setPublisherConfirmType(ConfirmType.CORRELATED);
    this.channels = newChannelAfterNack ? new AmqpReplyPublisher(factory, "", requestQueue) : null;
    this.template = new RabbitTemplate(factory);
    this.admin = new RabbitAdmin(factory);
    this.requestQueue = requestQueue;
    admin.declareQueue(
        new Queue(REPLY_QUEUE, true, false, false, Map.of("x-queue-type", "quorum")));
    this.replies = listen(REPLY_QUEUE, this::onReply);
    this.deadLetters = listen(deadLetterQueue, this::onDeadLetter);
  }

  /** From now on replies and dead-letters go to {@code ledger}. */
  public void use(FaultLedger ledger) {
    this.ledger = ledger;
  }

  /** Also passes every dead-letter to {@code observer} (a clean-pipe run's bookkeeping). */
  void observeDeadLetters(Consumer<Message> observer) {
    this.deadLetterObserver = observer;
  }

  public RabbitAdmin admin() {
    return admin;
  }

  /** Sends {@code payload} as request {@code key} with the fault reply queue. */
  public void send(FaultLedger ledger, String key, Payload payload) {
    send(ledger, key, payload.expected(), request(key, payload.body(), payload.filename()));
  }

  /** Sends {@code message} (its properties set by the caller) as request {@code key}. */
  void send(FaultLedger ledger, String key, Expected expected, Message message) {
    ledger.sent(key, expected);
    if (channels != null) {
      channels
          .onBatchChannels(() -> channels.toQueue(requestQueue, message))
          .thenAccept(
              outcome -> confirmed(ledger, key, outcome instanceof PublishOutcome.Confirmed));
      return;
    }
    CorrelationData correlation = new CorrelationData(key);
    correlation.getFuture().thenAccept(confirm -> confirmed(ledger, key, confirm.ack()));
    try {
      template.send("", requestQueue, message, correlation);
    } catch (AmqpException e) {
      // not sent: the broker is away; the request stays unconfirmed
    }
  }

  /**
   * Marks {@code key} confirmed, or counts the broker's nack: a nacked request stays unconfirmed
   * (the broker does not hold it), so nothing requires an answer to it.
   */
  private void confirmed(FaultLedger ledger, String key, boolean ack) {
    if (ack) {
      ledger.confirmed(key);
    } else {
      nacks.incrementAndGet();
    }
  }

  /** Requests the broker did not confirm (nacked, or no answer) since the client began. */
  public int nacks() {
    return nacks.get();
  }

  /** Sends {@code message} again as it is: a duplicate the ledger already knows. */
  void resend(Message message) {
    template.send("", requestQueue, message);
  }

  /**
   * The history documents in the messages on {@code queue} that no consumer holds (the sum of their
   * {@code avDocuments} headers): takes every ready message without acknowledging it, then returns
   * them all to the queue (they come back marked redelivered). For a history queue no indexer
   * consumes.
   */
  int peekHistoryDocuments(String queue) {
    return template.execute(channel -> {
      int documents = 0;
      long last = -1;
      for (GetResponse got = channel.basicGet(queue, false);
          got != null;
          got = channel.basicGet(queue, false)) {
        documents +=
            ((Number) got.getProps().getHeaders().get(WireNames.HISTORY_DOCUMENTS)).intValue();
        last = got.getEnvelope().getDeliveryTag();
      }
      if (last >= 0) {
        channel.basicNack(last, true, true);
      }
      return documents;
    });
  }

  /** A request with message id = correlation id = {@code key}, replying to the fault queue. */
  static Message request(String key, byte[] body, String filename) {
    MessageProperties props = new MessageProperties();
    props.setMessageId(key);
    props.setCorrelationId(key);
    props.setReplyTo(REPLY_QUEUE);
    if (filename != null) {
      props.setHeader(WireNames.FILENAME, filename);
    }
    return new Message(body, props);
  }

  /** Waits (bounded) until every confirmed request of {@code ledger} has an answer. */
  public static void awaitAnswered(FaultLedger ledger, Duration timeout) {
    await(ledger.scenario() + ": an answer to every confirmed request")
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(200))
        .until(() -> ledger.unanswered() == 0);
  }

  private void onReply(Message message) {
    MessageProperties props = message.getMessageProperties();
    Verdict verdict = Verdict.valueOf(header(props, WireNames.VERDICT));
    if (verdict == Verdict.ERROR) {
      ledger.printErrorReply(
          props.getCorrelationId(), new String(message.getBody(), StandardCharsets.UTF_8));
    }
    record(props, new Outcome.Reply(verdict, reason(header(props, WireNames.REASON))));
  }

  private void onDeadLetter(Message message) {
    deadLetterObserver.accept(message);
    MessageProperties props = message.getMessageProperties();
    String dead = header(props, WireNames.REASON);
    String verdict = header(props, WireNames.VERDICT);
    record(
        props,
        new Outcome.DeadLetter(
            dead == null ? null : DeadLetterReason.valueOf(dead),
            verdict == null ? null : Verdict.valueOf(verdict),
            null));
  }

  private void record(MessageProperties props, Outcome outcome) {
    record(ledger, props.getCorrelationId(), props, outcome);
  }

  /**
   * Passes an answer to {@code ledger}; one its queue delivered again (a broker killed before the
   * acknowledgement of the first delivery reached its disk) is the same message seen twice.
   */
  static void record(FaultLedger ledger, String key, MessageProperties props, Outcome outcome) {
    if (Boolean.TRUE.equals(props.getRedelivered())) {
      ledger.observeAgain(key, outcome);
    } else {
      ledger.observe(key, outcome);
    }
  }

  private SimpleMessageListenerContainer listen(
      String queue, java.util.function.Consumer<Message> handler) {
    SimpleMessageListenerContainer container = new SimpleMessageListenerContainer(factory);
    container.setQueueNames(queue);
    container.setAcknowledgeMode(AcknowledgeMode.AUTO);
    container.setMissingQueuesFatal(false);
    // The dead-letter queue is the gateway's to declare, and a rig's client starts before any
    // gateway: a missing queue is retried within a second instead of start() blocking for 3 × 5 s.
    container.setFailedDeclarationRetryInterval(250);
    container.setRecoveryInterval(500);
    container.setMessageListener(handler::accept);
    container.start();
    return container;
  }

  private static String header(MessageProperties props, String name) {
    Object value = props.getHeaders().get(name);
    return value == null ? null : value.toString();
  }

  private static Reason reason(String name) {
    return name == null ? null : Reason.valueOf(name);
  }

  @Override
  public void close() {
    replies.stop();
    deadLetters.stop();
    factory.resetConnection();
    factory.destroy();
  }
}
