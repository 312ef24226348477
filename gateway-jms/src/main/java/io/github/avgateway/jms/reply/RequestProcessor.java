package io.github.avgateway.jms.reply;

import io.github.avgateway.core.logging.ReplyRefusalLog;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.port.IntakeGate;
import io.github.avgateway.core.transport.DeadLetter;
import io.github.avgateway.core.transport.ReplyRoute;
import io.github.avgateway.core.transport.TriageRules;
import io.github.avgateway.jms.intake.ConsumerSession;
import io.github.avgateway.jms.intake.Handled;
import io.github.avgateway.jms.intake.ItemProcessor;
import io.github.avgateway.jms.triage.InboundRequest;
import io.github.avgateway.jms.triage.JmsReplyDestinationPolicy;
import io.github.avgateway.jms.triage.JmsRequestMapper;
import io.github.avgateway.jms.triage.JmsRequestTriage;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.time.Clock;
import java.util.Optional;

/**
 * Handles one request inside a consumer's transacted session: maps it, scans it, and sends the
 * reply or the dead-letter through the session. Every request that is not retried ends as exactly
 * one reply or one dead-letter, plus one history document, which its batch hands over with the
 * batch's others (one history message, shared with other batches' through the history buffer).
 * Decisions are {@link JmsRequestTriage}'s. A dead-letter that cannot be sent with the request's
 * properties is sent with the gateway's own only (see {@link JmsDeadLetters#send}), never rolled
 * back for what the request carries.
 */
public final class RequestProcessor implements ItemProcessor {

  private final JmsRequestMapper mapper = new JmsRequestMapper();
  private final ScanPipeline pipeline;
  private final IntakeGate gate;
  private final JmsRequestTriage routing;
  private final Clock clock;
  private final ReplyRefusalLog refusals;

  public RequestProcessor(
      ScanPipeline pipeline, IntakeGate gate, JmsRequestTriage routing, Clock clock) {
    this.pipeline = pipeline;
    this.gate = gate;
    this.routing = routing;
    this.clock = clock;
    this.refusals = new ReplyRefusalLog(clock);
  }

  @Override
  public Handled handle(Message message, ConsumerSession session) throws JMSException {
    // Read before the scan: the gate closing meanwhile holds a failed scan (TriageRules.held).
    long closings = gate.closings();
    InboundRequest inbound = mapper.map(message, clock.instant());
    Optional<DeadLetter> early = routing.beforeScan(inbound);
    if (early.isPresent()) {
      DeadLetter letter = early.get();
      if (letter.reason() == DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED) {
        refusals.refused(
            inbound.request(),
            JmsReplyDestinationPolicy.describe(inbound.replyTo()),
            letter.detail());
      }
      ScanResult refused =
          pipeline.refuse(inbound.request(), letter.reason().unscannedReason(), letter.detail());
      return JmsDeadLetters.deadLettered(pipeline, session, message, inbound, refused, letter);
    }
    ScanResult result = pipeline.scan(inbound.request());
    Optional<String> held = TriageRules.held(result, () -> gate.intakeSince(closings));
    if (held.isPresent()) {
      return new Handled.RetryLater(held.get());
    }
    return switch (routing.replyRoute(inbound, session.defaultReplyTo())) {
      case ReplyRoute.To<Destination> to ->
          reply(session, message, inbound, result, to.destination());
      case ReplyRoute.Undeliverable<Destination> none ->
          JmsDeadLetters.deadLettered(
              pipeline, session, message, inbound, result, none.deadLetter());
    };
  }

  private Handled reply(
      ConsumerSession session,
      Message message,
      InboundRequest inbound,
      ScanResult result,
      Destination replyTo)
      throws JMSException {
    try {
      session.send(replyTo, JmsReplyBuilder.reply(session.session(), result));
    } catch (InvalidDestinationException e) {
      return JmsDeadLetters.deadLettered(
          pipeline, session, message, inbound, result, JmsRequestTriage.unroutable(e.getMessage()));
    }
    return new Handled.Done(pipeline.replied(inbound.request(), result));
  }
}
