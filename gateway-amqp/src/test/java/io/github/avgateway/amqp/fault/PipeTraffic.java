package io.github.avgateway.amqp.fault;

import io.github.avgateway.amqp.testing.RabbitIt;
import io.github.avgateway.core.fault.FaultLedger;
import io.github.avgateway.core.fault.FaultPayloads.Payload;
import io.github.avgateway.core.fault.Outcome;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.pipe.Pipe;
import io.github.avgateway.core.pipe.PipeOutlet;
import io.github.avgateway.core.wire.WireNames;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.SoftAssertions;
import org.springframework.amqp.AmqpException;
import org.springframework.amqp.core.AcknowledgeMode;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory.ConfirmType;
import org.springframework.amqp.rabbit.connection.CorrelationData;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;

/**
 * Producers and consumers of one clean-pipe in a fault run, on the private node directly: files are
 * published to the inbox with publisher confirms (no {@code reply_to}: the forward is the answer),
 * and the three outlets and the dead-letter queue are read. Every message seen is passed to the
 * scenario's {@link FaultLedger} as its answer (a forward as a reply carrying the forwarded {@code
 * avVerdict}) and noted by destination, so that a run can tell how many files reached more than one
 * destination, which outlet each reached, and whether a producer header survived.
 */
final class PipeTraffic implements AutoCloseable {

  static final String DEAD_LETTER = "dead-letter";
  static final String PRODUCER_HEADER = "x-producer";

  private final Pipe pipe;
  private final CachingConnectionFactory factory;
  private final RabbitTemplate template;
  private final List<SimpleMessageListenerContainer> outlets = new CopyOnWriteArrayList<>();
  private final Map<String, List<String>> destinations = new ConcurrentHashMap<>();
  private final Set<String> eicarKeys = ConcurrentHashMap.newKeySet();
  private final AtomicInteger headerLost = new AtomicInteger();
  private volatile FaultLedger ledger = new FaultLedger("none");

  PipeTraffic(int port, Pipe pipe, FaultClient deadLetters) {
    this(RabbitIt.connectionFactory(port), pipe, deadLetters);
  }

  /** Traffic on {@code factory} (e.g. every node of a cluster); it closes the factory. */
  PipeTraffic(CachingConnectionFactory factory, Pipe pipe, FaultClient deadLetters) {
    this.pipe = pipe;
    this.factory = factory;
    factory.setPublisherConfirmType(ConfirmType.CORRELATED);
    this.template = new RabbitTemplate(factory);
    for (PipeOutlet outlet : PipeOutlet.values()) {
      outlets.add(listen(pipe.destination(outlet), m -> onForward(outlet, m)));
    }
    deadLetters.observeDeadLetters(
        m -> note(m.getMessageProperties().getCorrelationId(), DEAD_LETTER));
  }

  /** From now on what the outlets receive goes to {@code ledger}. */
  void use(FaultLedger ledger) {
    this.ledger = ledger;
  }

  /** Publishes {@code payload} to the inbox as file {@code key} (message and correlation id). */
  void send(String key, Payload payload) {
    ledger.sent(key, payload.expected());
    if (payload.expected().eicarBearing()) {
      eicarKeys.add(key);
    }
    MessageProperties props = new MessageProperties();
    props.setMessageId(key);
    props.setCorrelationId(key);
    props.setContentType("application/octet-stream");
    props.setHeader(WireNames.FILENAME, payload.filename());
    props.setHeader(PRODUCER_HEADER, key);
    CorrelationData correlation = new CorrelationData(key);
    FaultLedger current = ledger;
    correlation
        .getFuture()
        .thenAccept(confirm -> {
          if (confirm.ack()) {
            current.confirmed(key);
          }
        });
    try {
      template.send("", pipe.inbox(), new Message(payload.body(), props), correlation);
    } catch (AmqpException e) {
      // not sent: the broker is away; the file stays unconfirmed
    }
  }

  /** Destinations (outlet queue or {@link #DEAD_LETTER}) that {@code key} reached, repeats kept. */
  List<String> destinations(String key) {
    return destinations.getOrDefault(key, List.of());
  }

  /** Files of {@code keys} that reached more than one destination. */
  long inTwoDestinations(List<String> keys) {
    return keys.stream().filter(k -> Set.copyOf(destinations(k)).size() > 1).count();
  }

  /** Forwards beyond the first, summed over {@code keys} (same destination: at-least-once). */
  long repeats(List<String> keys) {
    return keys.stream().mapToLong(k -> Math.max(0, destinations(k).size() - 1)).sum();
  }

  /** Files of {@code keys} forwarded to {@code outlet}. */
  long reached(List<String> keys, PipeOutlet outlet) {
    String queue = pipe.destination(outlet);
    return keys.stream().filter(k -> destinations(k).contains(queue)).count();
  }

  /** EICAR-bearing files of {@code keys} that reached the clean queue. */
  long eicarOnClean(List<String> keys) {
    return keys.stream()
        .filter(eicarKeys::contains)
        .filter(k -> destinations(k).contains(pipe.clean()))
        .count();
  }

  /** Forwards that arrived without the producer's own header. */
  int producerHeaderLost() {
    return headerLost.get();
  }

  /** The history disposition a file that reached {@code destination} must have. */
  Disposition dispositionOf(String destination) {
    if (destination.equals(DEAD_LETTER)) {
      return Disposition.DEAD_LETTERED;
    }
    for (PipeOutlet outlet : PipeOutlet.values()) {
      if (pipe.destination(outlet).equals(destination)) {
        return outlet.disposition();
      }
    }
    throw new IllegalArgumentException(destination);
  }

  /**
   * The pipe's own checks of a run over {@code keys} whose history documents are {@code docs},
   * printed as one line and asserted: no file in two destinations, no EICAR-bearing file on clean,
   * the producer's header on every forward, and every document's disposition the destination its
   * file reached first.
   */
  void assertPipeHolds(String scenario, List<String> keys, List<MessageInfo> docs) {
    long wrongDisposition =
        docs.stream()
            .filter(doc -> {
              List<String> reached = destinations(doc.correlationId());
              return reached.isEmpty() || doc.disposition() != dispositionOf(reached.get(0));
            })
            .count();
    System.out.printf(
        Locale.ROOT,
        "FAULT %s: clean=%d quarantine=%d rejected=%d; in two destinations=%d, repeats on the"
            + " same destination=%d, EICAR on clean=%d, producer header lost=%d, history"
            + " disposition wrong=%d%n",
        scenario,
        reached(keys, PipeOutlet.CLEAN),
        reached(keys, PipeOutlet.QUARANTINE),
        reached(keys, PipeOutlet.REJECTED),
        inTwoDestinations(keys),
        repeats(keys),
        eicarOnClean(keys),
        producerHeaderLost(),
        wrongDisposition);
    SoftAssertions soft = new SoftAssertions();
    soft.assertThat(inTwoDestinations(keys)).as("files in two destinations").isZero();
    soft.assertThat(eicarOnClean(keys)).as("EICAR-bearing files on clean").isZero();
    soft.assertThat(producerHeaderLost()).as("forwards without the producer's header").isZero();
    soft.assertThat(wrongDisposition).as("history documents of the wrong disposition").isZero();
    soft.assertAll();
  }

  private void onForward(PipeOutlet outlet, Message message) {
    MessageProperties props = message.getMessageProperties();
    String key = props.getCorrelationId();
    if (!String.valueOf(key).equals(String.valueOf(props.getHeaders().get(PRODUCER_HEADER)))) {
      headerLost.incrementAndGet();
    }
    note(key, pipe.destination(outlet));
    Object reason = props.getHeaders().get(WireNames.REASON);
    FaultClient.record(
        ledger,
        key,
        props,
        new Outcome.Reply(
            Verdict.valueOf(String.valueOf(props.getHeaders().get(WireNames.VERDICT))),
            reason == null ? null : Reason.valueOf(reason.toString())));
  }

  private void note(String key, String destination) {
    if (key != null) {
      destinations.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(destination);
    }
  }

  private SimpleMessageListenerContainer listen(
      String queue, java.util.function.Consumer<Message> handler) {
    SimpleMessageListenerContainer container = new SimpleMessageListenerContainer(factory);
    container.setQueueNames(queue);
    container.setAcknowledgeMode(AcknowledgeMode.AUTO);
    container.setMissingQueuesFatal(false);
    container.setRecoveryInterval(500);
    container.setMessageListener(handler::accept);
    container.start();
    return container;
  }

  @Override
  public void close() {
    outlets.forEach(SimpleMessageListenerContainer::stop);
    factory.resetConnection();
    factory.destroy();
  }
}
