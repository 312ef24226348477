package io.github.avgateway.amqp.intake;

import com.rabbitmq.client.Channel;
import io.github.avgateway.amqp.reply.AmqpReplyBuilder;
import io.github.avgateway.amqp.reply.AmqpReplyPublisher;
import io.github.avgateway.amqp.reply.AmqpTraceHeaders;
import io.github.avgateway.amqp.reply.PublishOutcome;
import io.github.avgateway.amqp.triage.AmqpRequestTriage;
import io.github.avgateway.core.history.HistoryStream;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.trace.RequestTracer;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.connection.ChannelProxy;
import org.springframework.amqp.rabbit.listener.api.ChannelAwareBatchMessageListener;

/**
 * Handles one consumer's batch of requests (manual acknowledgement). Guarantee: a request is
 * acknowledged only after its reply or dead-letter was confirmed by the broker <em>and</em> the
 * history message holding the batch's documents was confirmed by the broker on the history queue;
 * every other request of the batch is requeued ({@code basic.nack} with requeue), so the broker
 * delivers it again. Phases per batch: scan everything, publish, wait for all confirms, hand the
 * documents to the history stream ({@link HistoryHandOff}; its buffer may carry several batches'
 * documents in one message); the publishes share the batch's channels ({@link
 * AmqpReplyPublisher#onBatchChannels}). The consumer then takes its next batch while this one waits
 * for its history confirm in its channel's {@link AckLine}, which acknowledges batches in delivery
 * order (a quorum queue's confirm waits for its log to reach the disk, 10–20 ms under load: waiting
 * for it here kept the consumer's next requests waiting too). No history store is on this path.
 *
 * <p>A pause costs no delivery attempt ({@link AmqpIntakeHold}): while the intake gate is down the
 * consumer holds its batch unscanned; scans that failed because clamd went away meanwhile are held
 * and scanned again once it is back (instead of answering ERROR); a history message the broker
 * refused (backlog full) is held and published again once the backlog has room (the replies are
 * confirmed already). Only a hold that runs out, or a stopping gateway, requeues. Once the gateway
 * is stopping, each batch is acknowledged before its consumer returns, and {@link
 * #awaitAcknowledged(Duration)} waits for the batches already in line, so that stopping the
 * consumers does not return requests whose replies were sent.
 */
public final class ScanBatchListener implements ChannelAwareBatchMessageListener {

  private static final Logger log = LoggerFactory.getLogger(ScanBatchListener.class);

  private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

  /**
   * How long a consumer of a stopping gateway waits for its batch's history confirm: as long as
   * Spring AMQP's container waits for a consumer to finish by default.
   */
  public static final Duration STOP_WAIT = Duration.ofSeconds(5);

  /**
   * How long a consumer holds a batch in which the broker nacked a reply, forward or dead-letter
   * before that batch goes back to the queue (and before the consumer takes its next one). A quorum
   * queue whose leader died can nack publishes until its members have elected a new one (the
   * cluster fault rows, docs/reliability.md): requeued at once, the same request came back to a
   * consumer again and again and used up its delivery attempts inside one election. Held for this
   * long, it comes back once the election is over, and a nacking reply queue (a caller's, full with
   * {@code reject-publish}) costs each of its requests a delivery a second.
   */
  static final Duration NACK_BACKOFF = Duration.ofSeconds(1);

  private final AmqpRequestTriage triage;
  private final ScanPipeline pipeline;
  private final AmqpReplyBuilder builder;
  private final AmqpReplyPublisher publisher;
  private final HistoryHandOff history;
  private final AmqpIntakeHold hold;
  private final Duration confirmTimeout;
  private final RequestTracer tracer;
  private volatile Runnable onIntakeTrouble = () -> {};

  /** This consumer thread's line; a consumer's channel is used by its thread alone. */
  private final ThreadLocal<AckLine> line = new ThreadLocal<>();

  /** Every line in use, for {@link #awaitAcknowledged(Duration)}. */
  private final Set<AckLine> lines = ConcurrentHashMap.newKeySet();

  /**
   * @param tracer traces each request: its span, scan, publishes and history hand-off ({@link
   *     RequestTracer#NONE} when tracing is off)
   */
  public ScanBatchListener(
      AmqpRequestTriage triage,
      ScanPipeline pipeline,
      AmqpReplyPublisher publisher,
      HistoryStream<PublishOutcome> history,
      AmqpIntakeHold hold,
      Duration confirmTimeout,
      Duration historyTimeout,
      RequestTracer tracer) {
    this.tracer = tracer;
    this.triage = triage;
    this.pipeline = pipeline;
    this.builder = new AmqpReplyBuilder();
    this.publisher = publisher;
    this.history = new HistoryHandOff(history, hold, historyTimeout);
    this.hold = hold;
    this.confirmTimeout = confirmTimeout;
  }

  /** Called (on the consumer thread) when the gate is down or the history backlog is full. */
  public void onIntakeTrouble(Runnable action) {
    this.onIntakeTrouble = action;
  }

  @Override
  public void onMessageBatch(List<Message> messages, Channel channel) {
    List<BatchItem> items = new ArrayList<>(messages.size());
    Instant received = Instant.now();
    messages.forEach(m ->
        items.add(
            new BatchItem(m, builder, publisher, AmqpTraceHeaders.start(tracer, m, received))));
    CompletableFuture<Void> settled = DONE;
    // Read before the gate is asked: a closing after this reading holds the batch's failed scans.
    long closings = hold.closings();
    if (!hold.awaitOpen(onIntakeTrouble)) {
      items.forEach(item -> item.fail("intake paused: " + why()));
    } else {
      try {
        settled = process(items, closings);
      } catch (RuntimeException e) {
        log.warn("batch of {} requests failed; requeueing what was not done", items.size(), e);
        items.forEach(item -> item.fail("unexpected failure: " + e));
      }
      if (items.stream().anyMatch(BatchItem::nacked)) {
        hold.pause(NACK_BACKOFF);
      }
    }
    AckLine batchLine = lineFor(channel);
    batchLine.join(items, settled);
    if (hold.stopping() && !batchLine.awaitEmpty(STOP_WAIT.toNanos())) {
      log.warn("stopping: a batch's history confirm did not come in time; the broker redelivers");
    }
  }

  /**
   * Waits until every batch handled so far was acknowledged (or its channel closed), for {@code
   * limit} at most; call it once the gateway is stopping and before the consumers stop.
   *
   * @return true when no batch is left waiting
   */
  public boolean awaitAcknowledged(Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    for (AckLine waiting : lines) {
      if (!waiting.awaitEmpty(deadline - System.nanoTime())) {
        return false;
      }
    }
    return true;
  }

  /**
   * The line of {@code channel}'s broker channel. Acknowledgements go to the broker channel itself,
   * never through Spring AMQP's proxy: once its channel closed, the proxy opens a new one on the
   * next call (possibly the one a recovered consumer is given next), where the delivery tags of the
   * closed one mean nothing, or other requests.
   */
  private AckLine lineFor(Channel consumerChannel) {
    Channel channel =
        consumerChannel instanceof ChannelProxy proxy && proxy.getTargetChannel() != null
            ? proxy.getTargetChannel()
            : consumerChannel;
    AckLine current = line.get();
    if (current == null || current.channel() != channel) {
      // A new consumer, or one that recovered on a new channel: the old line's channel is closed.
      lines.removeIf(old -> !old.channel().isOpen());
      current = new AckLine(channel, this::acknowledge);
      line.set(current);
      lines.add(current);
    }
    return current;
  }

  private CompletableFuture<Void> process(List<BatchItem> items, long closings) {
    scanHoldingForClamd(items, closings);
    return publisher.onBatchChannels(() -> publishAndHandOver(items));
  }

  /** Publishes every answer, waits for their confirms, then hands over the history message. */
  private CompletableFuture<Void> publishAndHandOver(List<BatchItem> items) {
    items.forEach(BatchItem::publish);
    long confirmDeadline = System.nanoTime() + confirmTimeout.toNanos();
    List<BatchItem> unsettled = items;
    while (!unsettled.isEmpty()) {
      unsettled = unsettled.stream().filter(item -> item.settle(confirmDeadline)).toList();
    }
    return history.handOver(items, pipeline, onIntakeTrouble);
  }

  /**
   * Scans; scans that failed because clamd went away are held and done again once it is back. A
   * failed scan counts as such when the intake gate is down, or closed at any moment since {@code
   * closings} was read: clamd may be back by the time the batch's last scan is done, and its failed
   * scans must not be answered ERROR for an outage that is over.
   */
  private void scanHoldingForClamd(List<BatchItem> items, long closings) {
    scan(items);
    List<BatchItem> failed = items.stream().filter(BatchItem::scanFailed).toList();
    long since = closings;
    while (!failed.isEmpty() && hold.intakeSince(since) instanceof Availability.Down) {
      since = hold.closings();
      if (!hold.awaitOpen(onIntakeTrouble)) {
        failed.forEach(item -> item.fail("clamd did not come back in time: " + why()));
        return;
      }
      scan(failed);
      failed = failed.stream().filter(BatchItem::scanFailed).toList();
    }
  }

  private void scan(List<BatchItem> items) {
    for (BatchItem item : items) {
      try {
        item.scan(triage, pipeline);
      } catch (RuntimeException e) {
        log.warn("request could not be handled; it will be redelivered", e);
        item.fail("unexpected failure: " + e);
      }
    }
  }

  private String why() {
    return hold.intake() instanceof Availability.Down down ? down.why() : "intake open again";
  }

  /** Acknowledges a settled batch (one multiple ack when all of it is done); runs in its line. */
  private void acknowledge(Channel channel, List<BatchItem> items) {
    List<BatchItem> failed = items.stream().filter(item -> !item.done()).toList();
    try {
      if (failed.isEmpty()) {
        long last = items.stream().mapToLong(BatchItem::deliveryTag).max().orElseThrow();
        channel.basicAck(last, true);
        return;
      }
      for (BatchItem item : items) {
        if (item.done()) {
          channel.basicAck(item.deliveryTag(), false);
        } else {
          channel.basicNack(item.deliveryTag(), false, true);
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("could not acknowledge; the broker will redeliver", e);
    } finally {
      items.forEach(BatchItem::endTrace);
    }
    log.warn(
        "{} of {} requests requeued, the first because: {}",
        failed.size(),
        items.size(),
        failed.get(0).failure());
    if (failed.stream().anyMatch(BatchItem::historyRefused)) {
      onIntakeTrouble.run();
    }
  }
}
