package io.github.avgateway.amqp;

import com.rabbitmq.client.Channel;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.HistoryRecorder;
import io.github.avgateway.core.port.IntakeGate;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.listener.api.ChannelAwareBatchMessageListener;

/**
 * Handles one consumer's batch of requests (manual acknowledgement). Guarantee: a request is
 * acknowledged only after its reply or dead-letter was confirmed by the broker <em>and</em> its
 * history document was accepted by the store; every other request of the batch is requeued ({@code
 * basic.nack} with requeue), so the broker delivers it again. Phases per batch: scan and publish
 * everything, wait for all confirms, record all documents (one history flush), acknowledge. While
 * the intake gate is down the batch is requeued unscanned and the consumers are paused.
 */
public final class ScanBatchListener implements ChannelAwareBatchMessageListener {

  private static final Logger log = LoggerFactory.getLogger(ScanBatchListener.class);

  private final RequestTriage triage;
  private final ScanPipeline pipeline;
  private final AmqpReplyBuilder builder;
  private final AmqpReplyPublisher publisher;
  private final HistoryRecorder history;
  private final IntakeGate gate;
  private final Duration confirmTimeout;
  private final Duration historyTimeout;
  private volatile Runnable onIntakeTrouble = () -> {};

  public ScanBatchListener(
      RequestTriage triage,
      ScanPipeline pipeline,
      AmqpReplyPublisher publisher,
      HistoryRecorder history,
      IntakeGate gate,
      Duration confirmTimeout,
      Duration historyTimeout) {
    this.triage = triage;
    this.pipeline = pipeline;
    this.builder = new AmqpReplyBuilder();
    this.publisher = publisher;
    this.history = history;
    this.gate = gate;
    this.confirmTimeout = confirmTimeout;
    this.historyTimeout = historyTimeout;
  }

  /** Called (on the consumer thread) when the gate is down or the history store refused. */
  public void onIntakeTrouble(Runnable action) {
    this.onIntakeTrouble = action;
  }

  @Override
  public void onMessageBatch(List<Message> messages, Channel channel) {
    List<BatchItem> items = new ArrayList<>(messages.size());
    messages.forEach(m -> items.add(new BatchItem(m, builder, publisher)));
    if (gate.intake() instanceof Availability.Down down) {
      items.forEach(item -> item.fail("intake paused: " + down.why()));
      onIntakeTrouble.run();
    } else {
      try {
        process(items);
      } catch (RuntimeException e) {
        log.warn("batch of {} requests failed; requeueing what was not done", items.size(), e);
        items.forEach(item -> item.fail("unexpected failure: " + e));
      }
    }
    acknowledge(channel, items);
  }

  private void process(List<BatchItem> items) {
    for (BatchItem item : items) {
      try {
        item.start(triage, pipeline);
      } catch (RuntimeException e) {
        log.warn("request could not be handled; it will be redelivered", e);
        item.fail("unexpected failure: " + e);
      }
    }
    // Publishing the batch's replies together lets the broker confirm them together.
    for (BatchItem item : items) {
      try {
        item.publish();
      } catch (RuntimeException e) {
        log.warn("reply could not be published; the request will be redelivered", e);
        item.fail("unexpected failure: " + e);
      }
    }
    long confirmDeadline = System.nanoTime() + confirmTimeout.toNanos();
    List<BatchItem> unsettled = items;
    while (!unsettled.isEmpty()) {
      unsettled = unsettled.stream().filter(item -> item.settle(confirmDeadline)).toList();
    }
    for (BatchItem item : items) {
      MessageInfo doc = item.history(pipeline);
      if (doc != null) {
        try {
          item.recording(history.record(doc));
        } catch (RuntimeException e) {
          item.fail("history store refused the document: " + e);
        }
      }
    }
    long historyDeadline = System.nanoTime() + historyTimeout.toNanos();
    items.forEach(item -> item.awaitRecorded(historyDeadline));
  }

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
