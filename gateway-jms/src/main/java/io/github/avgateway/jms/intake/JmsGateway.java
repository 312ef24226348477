package io.github.avgateway.jms.intake;

import io.github.avgateway.core.config.HistoryStreamProperties;
import io.github.avgateway.core.history.HistoryBacklogGate;
import io.github.avgateway.core.pipe.Pipe;
import io.github.avgateway.core.port.IntakeGate;
import io.github.avgateway.jms.config.JmsProperties;
import io.github.avgateway.jms.history.HistoryRoom;
import io.github.avgateway.jms.history.JmsHistoryBuffer;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The JMS front-end: N {@link BatchConsumer}s on the request queue, and N more on each clean-pipe's
 * inbox, each on its own thread, connection and transacted session. Starts after everything else
 * (so the broker, scanner and history are up) and stops first, letting each consumer finish its
 * current batch. With {@code avgateway.jms.intake=listener-container} the same batches run in one
 * Spring JMS {@link BatchListenerContainer} per queue instead (N invoker threads on one
 * connection), started and stopped with the intake gate by a {@link ContainerIntakeWatch}.
 */
public final class JmsGateway implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(JmsGateway.class);

  /** How long stopping waits for a consumer's batch beyond its receive timeout. */
  private static final Duration STOP_GRACE = Duration.ofSeconds(10);

  private final ConnectionFactory factory;
  private final ConsumerSettings settings;
  private final List<Intake> intakes;
  private final IntakeGate gate;
  private final HistoryBacklogGate backlog;
  private final HistoryRoom room;
  private final QueueLookup lookup;
  private final int consumers;
  private final String listensOn;
  private final HistoryStreamProperties.Buffer buffer;
  private final JmsProperties.Intake mode;
  private JmsHistoryBuffer shared;
  private final List<BatchListenerContainer> containers = new ArrayList<>();
  private ContainerIntakeWatch watch;
  private CountDownLatch stopping;
  private final List<BatchConsumer> running = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();

  /**
   * @param intakes the queues to consume, each with its processor
   * @param backlog the history stream's bound, as the batches see it (part of {@code gate})
   * @param room whether the history address has room now, where the broker can be asked
   * @param lookup whether a queue exists, where the broker can be asked without a round trip
   * @param buffer the history buffer's settings, or null to send each batch's history itself
   * @param intake the gateway's own consumers, or Spring JMS listener containers
   */
  public JmsGateway(
      ConnectionFactory factory,
      ConsumerSettings settings,
      List<Intake> intakes,
      IntakeGate gate,
      HistoryBacklogGate backlog,
      HistoryRoom room,
      QueueLookup lookup,
      int consumers,
      String listensOn,
      HistoryStreamProperties.Buffer buffer,
      JmsProperties.Intake intake) {
    this.factory = factory;
    this.settings = settings;
    this.intakes = List.copyOf(intakes);
    this.gate = gate;
    this.backlog = backlog;
    this.room = room;
    this.lookup = lookup;
    this.consumers = consumers;
    this.listensOn = listensOn;
    this.buffer = buffer;
    this.mode = intake;
  }

  @Override
  public synchronized void start() {
    if (isRunning()) {
      return;
    }
    if (settings.historyQueue() != null && buffer != null) {
      shared = new JmsHistoryBuffer(factory, settings.historyQueue(), room, backlog, buffer);
    }
    if (mode == JmsProperties.Intake.LISTENER_CONTAINER) {
      startContainers();
    } else {
      startConsumers();
    }
    log.info(
        "av-gateway JMS ready: request queue {} on {} ({} {}, batches of up to {}){}, {} s"
            + " after JVM start",
        settings.requestQueue(),
        listensOn,
        consumers,
        mode == JmsProperties.Intake.LISTENER_CONTAINER
            ? "consumers in Spring JMS listener containers"
            : "consumers",
        settings.batchSize(),
        pipesDescription(),
        String.format("%.1f", ManagementFactory.getRuntimeMXBean().getUptime() / 1000.0));
  }

  private void startConsumers() {
    for (Intake intake : intakes) {
      for (int i = 1; i <= consumers; i++) {
        String name = intake.threadPrefix() + i;
        BatchConsumer consumer =
            new BatchConsumer(
                name,
                factory,
                settings,
                intake.queue(),
                intake.processor(),
                gate,
                backlog,
                room,
                lookup,
                shared);
        try {
          consumer.connect();
        } catch (JMSException e) {
          stop();
          throw new IllegalStateException("cannot connect to the broker at " + listensOn, e);
        }
        running.add(consumer);
        threads.add(Thread.ofPlatform().name(name).start(consumer));
      }
    }
  }

  /**
   * One listener container per queue, initialized (its invokers wait) and started by the watch once
   * the intake gate is up.
   */
  private void startContainers() {
    stopping = new CountDownLatch(1);
    for (Intake intake : intakes) {
      BatchListenerContainer container =
          new BatchListenerContainer(
              intake.threadPrefix().substring(0, intake.threadPrefix().length() - 1),
              factory,
              consumers,
              settings,
              intake.queue(),
              intake.processor(),
              gate,
              backlog,
              room,
              lookup,
              shared,
              stopping);
      container.afterPropertiesSet();
      containers.add(container);
    }
    watch = new ContainerIntakeWatch(gate, containers, settings.pausePollInterval());
  }

  private String pipesDescription() {
    StringBuilder out = new StringBuilder();
    for (Intake intake : intakes) {
      Pipe p = intake.pipe();
      if (p != null) {
        out.append(
            ", clean-pipe %s -> %s | %s | %s"
                .formatted(p.inbox(), p.clean(), p.quarantine(), p.rejected()));
      }
    }
    return out.toString();
  }

  @Override
  public synchronized void stop() {
    stopContainers();
    running.forEach(BatchConsumer::stop);
    long deadline = System.nanoTime() + settings.receiveTimeout().plus(STOP_GRACE).toNanos();
    for (int i = 0; i < threads.size(); i++) {
      try {
        threads.get(i).join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (threads.get(i).isAlive()) {
        running.get(i).abort();
      }
    }
    running.clear();
    threads.clear();
    // After the consumers: a batch still waiting for its history message gets its outcome first.
    if (shared != null) {
      shared.close();
      shared = null;
    }
  }

  /**
   * Stops the watch, ends the holds, and shuts the containers down: each waits for the batches its
   * invokers are running.
   */
  private void stopContainers() {
    if (watch != null) {
      watch.close();
      watch = null;
    }
    if (stopping != null) {
      stopping.countDown();
      stopping = null;
    }
    containers.forEach(BatchListenerContainer::shutdown);
    containers.clear();
  }

  @Override
  public synchronized boolean isRunning() {
    return !running.isEmpty() || !containers.isEmpty();
  }

  @Override
  public int getPhase() {
    return Integer.MAX_VALUE - 1000;
  }

  /** What takes the requests off the queues now ({@link Started}). */
  public synchronized Started started() {
    int serving = 0;
    for (BatchListenerContainer container : containers) {
      if (container.isRunning() && container.getScheduledConsumerCount() > 0) {
        serving++;
      }
    }
    return new Started(serving, containers.size() - serving, running.size());
  }

  /**
   * What the gateway started for its intake, as it is now.
   *
   * @param servingContainers Spring JMS listener containers running with at least one scheduled
   *     consumer
   * @param idleContainers listener containers stopped, or running without a scheduled consumer
   * @param consumers consumers of the gateway's own ({@code avgateway.jms.intake=consumers})
   */
  public record Started(int servingContainers, int idleContainers, int consumers) {}

  /**
   * One queue the gateway consumes, with the processor of its messages.
   *
   * @param pipe the clean-pipe whose inbox {@code queue} is, or null for the request queue
   */
  public record Intake(String threadPrefix, String queue, ItemProcessor processor, Pipe pipe) {}
}
