package io.github.avgateway.jms.pipe;

import io.github.avgateway.core.logging.RateLimitedWarning;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.pipe.Pipe;
import io.github.avgateway.core.pipe.PipeOutlet;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.port.IntakeGate;
import io.github.avgateway.core.transport.DeadLetter;
import io.github.avgateway.core.transport.TriageRules;
import io.github.avgateway.jms.intake.ConsumerSession;
import io.github.avgateway.jms.intake.Handled;
import io.github.avgateway.jms.intake.ItemProcessor;
import io.github.avgateway.jms.reply.JmsDeadLetters;
import io.github.avgateway.jms.reply.JmsReplyBuilder;
import io.github.avgateway.jms.triage.InboundRequest;
import io.github.avgateway.jms.triage.JmsReplyDestinationPolicy;
import io.github.avgateway.jms.triage.JmsRequestMapper;
import io.github.avgateway.jms.triage.JmsRequestTriage;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.LoggerFactory;

/**
 * Handles one message of a clean-pipe's inbox inside a consumer's transacted session: the same
 * triage as a request (malformed or over the delivery limit: dead-lettered unscanned), the scan,
 * then the forward of the original message ({@link JmsForwards}) to the pipe's queue for the
 * verdict (fail closed: only CLEAN goes to clean), and a reply when the message asks for one. The
 * forward and the reply commit with the consumption, or none does; the history message holding the
 * batch's documents is committed before (with the history buffer off: in the same commit).
 *
 * <p>A scan that failed while the intake gate is down (clamd unreachable) is retried, never
 * forwarded as ERROR. An outlet the broker refuses ({@link InvalidDestinationException}: no such
 * queue) dead-letters the message as {@code FORWARD_UNROUTABLE}; it is never forwarded elsewhere. A
 * JMSReplyTo the reply policy refuses, or the broker does, costs the message its reply only (a WARN
 * line, rate-limited): the forward is what the pipe is for.
 */
public final class PipeProcessor implements ItemProcessor {

  private final JmsRequestMapper mapper = new JmsRequestMapper();
  private final Pipe pipe;
  private final ScanPipeline pipeline;
  private final IntakeGate gate;
  private final JmsRequestTriage routing;
  private final Clock clock;
  private final RateLimitedWarning skippedReplies;

  public PipeProcessor(
      Pipe pipe, ScanPipeline pipeline, IntakeGate gate, JmsRequestTriage routing, Clock clock) {
    this.pipe = pipe;
    this.pipeline = pipeline;
    this.gate = gate;
    this.routing = routing;
    this.clock = clock;
    this.skippedReplies =
        new RateLimitedWarning(
            LoggerFactory.getLogger(PipeProcessor.class), Duration.ofMinutes(1), 1000, clock);
  }

  @Override
  public Handled handle(Message message, ConsumerSession session) throws JMSException {
    long closings = gate.closings();
    InboundRequest inbound = mapper.map(message, clock.instant());
    Optional<DeadLetter> early = routing.beforePipeScan(inbound);
    if (early.isPresent()) {
      DeadLetter letter = early.get();
      ScanResult refused =
          pipeline.refuse(inbound.request(), letter.reason().unscannedReason(), letter.detail());
      return JmsDeadLetters.deadLettered(pipeline, session, message, inbound, refused, letter);
    }
    ScanResult result = pipeline.scan(inbound.request());
    Optional<String> held = TriageRules.held(result, () -> gate.intakeSince(closings));
    if (held.isPresent()) {
      return new Handled.RetryLater(held.get());
    }
    PipeOutlet outlet = PipeOutlet.forVerdict(result.verdict());
    String queue = pipe.destination(outlet);
    try {
      session.send(
          session.queue(queue),
          JmsForwards.forward(session.session(), message, inbound, result),
          message.getJMSPriority(),
          JmsForwards.timeToLive(message, clock.millis()));
    } catch (InvalidDestinationException e) {
      return JmsDeadLetters.deadLettered(
          pipeline,
          session,
          message,
          inbound,
          result,
          JmsRequestTriage.forwardUnroutable(queue, e.getMessage()));
    }
    replyIfAsked(session, inbound, result);
    return new Handled.Done(pipeline.forwarded(inbound.request(), result, outlet));
  }

  private void replyIfAsked(ConsumerSession session, InboundRequest inbound, ScanResult result)
      throws JMSException {
    Destination replyTo = inbound.replyTo();
    if (replyTo == null) {
      return;
    }
    Optional<DeadLetter> refusal = routing.replyRefusal(replyTo);
    if (refusal.isPresent()) {
      skipped(inbound, replyTo, refusal.get().detail());
      return;
    }
    try {
      session.send(replyTo, JmsReplyBuilder.reply(session.session(), result));
    } catch (InvalidDestinationException e) {
      skipped(inbound, replyTo, "the broker refused it: " + e.getMessage());
    }
  }

  private void skipped(InboundRequest inbound, Destination replyTo, String why) {
    String client = inbound.request().clientId() == null ? "(none)" : inbound.request().clientId();
    String destination = JmsReplyDestinationPolicy.describe(replyTo);
    skippedReplies.warn(
        client + " -> " + destination,
        "Skipped the reply to {} of client {} ({}); pipe message {} was forwarded all the same",
        destination,
        client,
        why,
        inbound.request().requestId());
  }
}
