package io.github.avgateway.amqp.intake;

import io.github.avgateway.amqp.pipe.PipeForward;
import io.github.avgateway.amqp.reply.AmqpReplyBuilder;
import io.github.avgateway.amqp.reply.AmqpReplyPublisher;
import io.github.avgateway.amqp.reply.DeadLetterAttempts;
import io.github.avgateway.amqp.reply.PublishOutcome;
import io.github.avgateway.amqp.triage.AmqpRequestTriage;
import io.github.avgateway.amqp.triage.Triage;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.trace.RequestTrace;
import io.github.avgateway.core.trace.TraceStep;
import io.github.avgateway.core.transport.ReplyRoute;
import io.github.avgateway.core.transport.TriageRules;
import java.util.concurrent.CompletableFuture;
import org.springframework.amqp.core.Message;

/**
 * One request of a batch on its way from delivery to acknowledgement: scanned, its reply (or
 * dead-letter; for a clean-pipe message its forward, {@link PipeForward}) published and confirmed,
 * its history document handed to the broker (in the history message holding the batch's documents,
 * confirmed: {@link HistoryHandOff}). Any step that fails marks it failed, and a failed request is
 * requeued, never acknowledged (a dead-letter that was not confirmed is first published once more
 * with the gateway's own headers only: {@link DeadLetterAttempts}). Used by one consumer thread.
 */
final class BatchItem {

  private static final String NACKED = "nacked by the broker";

  private final Message message;
  private final AmqpReplyBuilder builder;
  private final AmqpReplyPublisher publisher;
  private final RequestTrace trace;
  private TraceStep historyStep = TraceStep.NONE;
  private MessageInfo document;
  private Triage triage;
  private ScanResult result;
  private DeadLetterAttempts deadLetter;
  private PipeForward forward;
  private CompletableFuture<PublishOutcome> pending;
  private boolean confirmed;
  private boolean historyHeld;
  private String failure;
  private boolean historyRefused;

  BatchItem(Message message, AmqpReplyBuilder builder, AmqpReplyPublisher publisher) {
    this(message, builder, publisher, RequestTrace.NONE);
  }

  /**
   * @param trace the request's trace: current while it is scanned and published, ended by {@link
   *     #endTrace()} once the batch was acknowledged
   */
  BatchItem(
      Message message, AmqpReplyBuilder builder, AmqpReplyPublisher publisher, RequestTrace trace) {
    this.message = message;
    this.builder = builder;
    this.publisher = publisher;
    this.trace = trace;
  }

  long deliveryTag() {
    return message.getMessageProperties().getDeliveryTag();
  }

  /** Decides and scans (unless refused); {@link #publish()} then sends the answer. */
  void scan(AmqpRequestTriage requestTriage, ScanPipeline pipeline) {
    try (RequestTrace.Scope scope = trace.makeCurrent()) {
      scanNow(requestTriage, pipeline);
    }
  }

  private void scanNow(AmqpRequestTriage requestTriage, ScanPipeline pipeline) {
    triage = requestTriage.triage(message);
    result =
        switch (triage) {
          case Triage.Scan scan -> pipeline.scan(scan.request());
          case Triage.Forward pipe -> pipeline.scan(pipe.request());
          case Triage.Refuse refuse ->
              pipeline.refuse(refuse.request(), refuse.reason(), refuse.detail());
        };
  }

  /** True when clamd could not scan it (ERROR SCAN_FAILED): worth a new scan once clamd is back. */
  boolean scanFailed() {
    return failure == null && !(triage instanceof Triage.Refuse) && TriageRules.scanFailed(result);
  }

  /**
   * Publishes the reply (a pipe message: the forward, and its reply if any), or the dead-letter
   * when the triage or the route says so.
   */
  void publish() {
    if (failure != null) {
      return;
    }
    try (RequestTrace.Scope scope = trace.makeCurrent()) {
      publishNow();
    }
  }

  private void publishNow() {
    switch (triage) {
      case Triage.Scan scan -> {
        switch (scan.route()) {
          case ReplyRoute.To<String> to ->
              pending = publisher.reply(to.destination(), builder.reply(result));
          case ReplyRoute.Undeliverable<String> no -> deadLetter(no.reason(), no.detail());
        }
      }
      case Triage.Forward pipe -> {
        forward = new PipeForward(pipe, result);
        pending = forward.publish(message, result, builder, publisher);
      }
      case Triage.Refuse refuse -> deadLetter(refuse.deadLetterReason(), refuse.detail());
    }
  }

  /**
   * Waits for the pending publish until {@code deadlineNanos}. A reply the broker returned as
   * unroutable turns into a {@code REPLY_UNROUTABLE} dead-letter, a forward into a {@code
   * FORWARD_UNROUTABLE} one, which is then pending.
   *
   * @return true when another publish is now pending and must be settled too
   */
  boolean settle(long deadlineNanos) {
    if (failure != null || confirmed) {
      return false;
    }
    try (RequestTrace.Scope scope = trace.makeCurrent()) {
      return settleNow(deadlineNanos);
    }
  }

  private boolean settleNow(long deadlineNanos) {
    switch (unconfirmedIfNacked(PublishOutcome.await(pending, deadlineNanos))) {
      case PublishOutcome.Confirmed ok -> confirmed(deadlineNanos);
      case PublishOutcome.Returned returned when deadLetter == null && forward != null -> {
        deadLetter(
            DeadLetterReason.FORWARD_UNROUTABLE,
            "the broker could not route the forward to queue "
                + forward.queue()
                + ": "
                + returned.replyText());
        return true;
      }
      case PublishOutcome.Returned returned when deadLetter == null -> {
        deadLetter(
            DeadLetterReason.REPLY_UNROUTABLE,
            "the broker could not route the reply: " + returned.replyText());
        return true;
      }
      case PublishOutcome.Returned returned ->
          fail("the dead-letter exchange could not route the dead-letter: " + returned.replyText());
      case PublishOutcome.Failed failed when deadLetter != null && deadLetter.mayFallBack() -> {
        pending = deadLetter.bare(builder, publisher, failed.why());
        return true;
      }
      case PublishOutcome.Failed failed -> fail(failed.why());
      case PublishOutcome.Nacked nacked -> fail(NACKED);
    }
    return false;
  }

  /** The pending publish was confirmed; a forward's reply must be too (or be unroutable). */
  private void confirmed(long deadlineNanos) {
    String replyFailed =
        forward == null || deadLetter != null ? null : forward.settleReply(deadlineNanos);
    if (replyFailed == null) {
      confirmed = true;
    } else {
      fail(replyFailed);
    }
  }

  /** A nacked reply or dead-letter is one the broker did not take: handled as unconfirmed. */
  private static PublishOutcome unconfirmedIfNacked(PublishOutcome outcome) {
    return outcome instanceof PublishOutcome.Nacked ? new PublishOutcome.Failed(NACKED) : outcome;
  }

  /**
   * The history document (with the request's trace id), for a request whose reply or dead-letter
   * was confirmed; else null. Starts the request's history hand-off step.
   */
  MessageInfo history(ScanPipeline pipeline) {
    if (failure != null || !confirmed) {
      return null;
    }
    document = untracedHistory(pipeline).withTraceId(trace.traceId());
    historyStep = trace.step("history hand-off");
    return document;
  }

  private MessageInfo untracedHistory(ScanPipeline pipeline) {
    if (deadLetter != null) {
      return pipeline.deadLettered(triage.request(), result, deadLetter.reason());
    }
    return forward == null
        ? pipeline.replied(triage.request(), result)
        : pipeline.forwarded(triage.request(), result, forward.outlet());
  }

  /** The broker confirmed the history message holding this request's document. */
  void historyHandedOver() {
    if (failure == null) {
      historyHeld = true;
      historyStep.end();
    }
  }

  /** Ends the request's trace: done with its document, or requeued for its failure. */
  void endTrace() {
    if (done()) {
      trace.finish(document);
    } else {
      trace.fail(failure == null ? "requeued" : failure);
    }
  }

  /** The broker did not take the history message holding its document (backlog full): requeued. */
  void historyRefused(String why) {
    historyRefused = true;
    fail(why);
  }

  /**
   * True when the reply (or dead-letter) and the history message holding its document were
   * confirmed.
   */
  boolean done() {
    return failure == null && confirmed && historyHeld;
  }

  void fail(String why) {
    if (failure == null) {
      failure = why;
      historyStep.fail(why);
    }
  }

  String failure() {
    return failure;
  }

  /** True when the broker nacked its reply, forward or dead-letter (and it is requeued). */
  boolean nacked() {
    return NACKED.equals(failure);
  }

  /** True when the broker refused the history message holding its document (backlog full). */
  boolean historyRefused() {
    return historyRefused;
  }

  private void deadLetter(DeadLetterReason reason, String detail) {
    deadLetter = new DeadLetterAttempts(message, result, reason, detail);
    pending = deadLetter.first(builder, publisher);
  }
}
