package io.github.avgateway.jms;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.port.IntakeGate;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.time.Clock;
import java.util.Optional;

/**
 * Handles one request inside a consumer's transacted session: maps it, scans it, and sends the
 * reply or the dead-letter through the session. Every request that is not retried ends as exactly
 * one reply or one dead-letter, plus one history document, which its batch sends with the batch's
 * others as one history message. Decisions are {@link Routing}'s.
 */
final class RequestProcessor {

  private final JmsRequestMapper mapper = new JmsRequestMapper();
  private final ScanPipeline pipeline;
  private final IntakeGate gate;
  private final Routing routing;
  private final Clock clock;

  RequestProcessor(ScanPipeline pipeline, IntakeGate gate, Routing routing, Clock clock) {
    this.pipeline = pipeline;
    this.gate = gate;
    this.routing = routing;
    this.clock = clock;
  }

  /**
   * Handles {@code message}; throws only for broker failures, after which the caller rolls back.
   */
  Handled handle(Message message, ConsumerSession session) throws JMSException {
    InboundRequest inbound = mapper.map(message, clock.instant());
    Optional<Route.DeadLetter> early = routing.beforeScan(inbound);
    if (early.isPresent()) {
      Reason reason =
          inbound instanceof InboundRequest.Malformed
              ? Reason.MALFORMED_REQUEST
              : Reason.SCAN_FAILED;
      ScanResult refused = pipeline.refuse(inbound.request(), reason, early.get().detail());
      return deadLetter(session, message, inbound, refused, early.get());
    }
    ScanResult result = pipeline.scan(inbound.request());
    Route route = routing.afterScan(inbound, result, session.defaultReplyTo(), gate::intake);
    return switch (route) {
      case Route.Retry retry -> new Handled.RetryLater(retry.why());
      case Route.DeadLetter letter -> deadLetter(session, message, inbound, result, letter);
      case Route.Reply reply -> reply(session, message, inbound, result, reply);
    };
  }

  private Handled reply(
      ConsumerSession session,
      Message message,
      InboundRequest inbound,
      ScanResult result,
      Route.Reply reply)
      throws JMSException {
    try {
      session.send(reply.destination(), JmsReplies.reply(session.session(), result));
    } catch (InvalidDestinationException e) {
      return deadLetter(session, message, inbound, result, Routing.unroutable(e.getMessage()));
    }
    return done(pipeline.replied(inbound.request(), result));
  }

  private Handled deadLetter(
      ConsumerSession session,
      Message message,
      InboundRequest inbound,
      ScanResult result,
      Route.DeadLetter letter)
      throws JMSException {
    session.send(
        session.deadLetterQueue(),
        JmsDeadLetters.deadLetter(
            session.session(),
            message,
            inbound,
            letter.reason(),
            letter.detail(),
            result.verdict()));
    return done(pipeline.deadLettered(inbound.request(), result, letter.reason()));
  }

  private Handled done(MessageInfo document) {
    return new Handled.Done(document);
  }
}
