package io.github.avgateway.jms.triage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanRequest;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.Availability;
import jakarta.jms.Destination;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.apache.activemq.artemis.jms.client.ActiveMQDestination;
import org.junit.jupiter.api.Test;

class RequestTriageTest {

  private static final Destination CALLER = ActiveMQDestination.createQueue("av.reply.caller");
  private static final Destination DEFAULT = mock(Destination.class);
  private static final Supplier<Availability> UP = Availability::up;
  private static final Supplier<Availability> DOWN = () -> Availability.down("clamd unreachable");

  private final RequestTriage routing =
      new RequestTriage(
          3,
          new JmsReplyDestinationPolicy(
              Pattern.compile("av\\.reply\\..+"),
              Set.of("av.scan.requests", "av.scan.dead-letters")));

  private static ScanRequest request() {
    return new ScanRequest(
        "ID:1", null, "jms", null, null, null, Instant.EPOCH, false, ScanContent.of(new byte[0]));
  }

  private static ScanResult result(Verdict verdict, Reason reason) {
    List<String> signatures = verdict == Verdict.INFECTED ? List.of("Eicar") : List.of();
    return new ScanResult(
        "ID:1",
        "ID:1",
        verdict,
        signatures,
        reason,
        null,
        null,
        0,
        "e",
        "",
        false,
        Instant.EPOCH,
        0,
        "gw");
  }

  private static InboundRequest readable(Destination replyTo, int deliveries) {
    return new InboundRequest.Readable(request(), replyTo, deliveries);
  }

  @Test
  void malformedRequestIsDeadLetteredBeforeScanning() {
    var malformed =
        new InboundRequest.Malformed(request(), CALLER, 1, "TextMessage is not a request");
    assertThat(routing.beforeScan(malformed))
        .contains(
            new Triage.DeadLetter(
                DeadLetterReason.MALFORMED_REQUEST, "TextMessage is not a request"));
  }

  @Test
  void requestOverTheDeliveryLimitIsDeadLetteredBeforeScanning() {
    assertThat(routing.beforeScan(readable(CALLER, 3))).isEmpty();
    assertThat(routing.beforeScan(readable(ActiveMQDestination.createQueue("orders"), 4)))
        .hasValueSatisfying(letter ->
            assertThat(letter.reason()).isEqualTo(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED));
    assertThat(routing.beforeScan(readable(CALLER, 4)))
        .hasValueSatisfying(letter -> {
          assertThat(letter.reason()).isEqualTo(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED);
          assertThat(letter.detail()).contains("4 times").contains("limit of 3");
        });
  }

  @Test
  void verdictGoesToTheCallersReplyDestinationBeforeTheDefault() {
    for (Verdict verdict : List.of(Verdict.CLEAN, Verdict.INFECTED)) {
      assertThat(routing.afterScan(readable(CALLER, 1), result(verdict, null), DEFAULT, DOWN))
          .isEqualTo(new Triage.Reply(CALLER));
    }
    assertThat(routing.afterScan(readable(null, 1), result(Verdict.CLEAN, null), DEFAULT, UP))
        .isEqualTo(new Triage.Reply(DEFAULT));
  }

  @Test
  void noReplyDestinationAndNoDefaultIsDeadLettered() {
    Triage route = routing.afterScan(readable(null, 1), result(Verdict.CLEAN, null), null, UP);
    assertThat(route).isInstanceOf(Triage.DeadLetter.class);
    assertThat(((Triage.DeadLetter) route).reason())
        .isEqualTo(DeadLetterReason.NO_REPLY_DESTINATION);
  }

  @Test
  void scanFailureIsRetriedWhileTheGateIsDownAndAnsweredWhileItIsUp() {
    ScanResult failed = result(Verdict.ERROR, Reason.SCAN_FAILED);
    assertThat(routing.afterScan(readable(CALLER, 1), failed, null, DOWN))
        .isEqualTo(new Triage.Retry("clamd unreachable"));
    assertThat(routing.afterScan(readable(CALLER, 1), failed, null, UP))
        .isEqualTo(new Triage.Reply(CALLER));
  }

  @Test
  void gateIsAskedOnlyAfterAScanFailure() {
    AtomicInteger asked = new AtomicInteger();
    Supplier<Availability> counting =
        () -> {
          asked.incrementAndGet();
          return Availability.down("x");
        };
    routing.afterScan(readable(CALLER, 1), result(Verdict.CLEAN, null), null, counting);
    routing.afterScan(
        readable(CALLER, 1), result(Verdict.UNSCANNABLE, Reason.TOO_LARGE), null, counting);
    assertThat(asked).hasValue(0);
  }

  @Test
  void refusedReplyDestinationIsUnroutable() {
    assertThat(RequestTriage.unroutable("no such queue"))
        .isEqualTo(
            new Triage.DeadLetter(
                DeadLetterReason.REPLY_UNROUTABLE,
                "the broker refused the reply destination: no such queue"));
  }

  @Test
  void replyDestinationOutsideTheAllowListIsRefusedBeforeScanning() {
    for (Destination spoofed :
        List.<Destination>of(
            ActiveMQDestination.createQueue("orders"),
            ActiveMQDestination.createQueue("av.scan.requests"),
            ActiveMQDestination.createQueue("av.scan.dead-letters"),
            ActiveMQDestination.createTopic("av.reply.topic"))) {
      assertThat(routing.beforeScan(readable(spoofed, 1)))
          .as("reply to %s", spoofed)
          .hasValueSatisfying(letter ->
              assertThat(letter.reason())
                  .isEqualTo(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED));
    }
    assertThat(routing.beforeScan(readable(CALLER, 1))).isEmpty();
    assertThat(routing.beforeScan(readable(null, 1))).as("decided after the scan").isEmpty();
  }

  @Test
  void temporaryQueuesAreAllowedWhateverTheirName() {
    Destination temporary = ActiveMQDestination.createTemporaryQueue("4f1c-any-name");
    assertThat(routing.afterScan(readable(temporary, 1), result(Verdict.CLEAN, null), null, UP))
        .isEqualTo(new Triage.Reply(temporary));
  }

  @Test
  void pipeMessageIsTriagedLikeARequestButItsReplyToCostsItNothingBeforeTheScan() {
    Destination refused = ActiveMQDestination.createQueue("orders");
    assertThat(routing.beforePipeScan(readable(refused, 1))).isEmpty();
    assertThat(routing.beforePipeScan(readable(null, 3))).isEmpty();
    assertThat(routing.beforePipeScan(readable(null, 4)))
        .hasValueSatisfying(letter ->
            assertThat(letter.reason()).isEqualTo(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED));
    var malformed = new InboundRequest.Malformed(request(), null, 1, "TextMessage is not");
    assertThat(routing.beforePipeScan(malformed))
        .hasValueSatisfying(
            letter -> assertThat(letter.reason()).isEqualTo(DeadLetterReason.MALFORMED_REQUEST));
    assertThat(routing.replyRefusal(refused))
        .hasValueSatisfying(letter ->
            assertThat(letter.reason()).isEqualTo(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED));
    assertThat(routing.replyRefusal(CALLER)).isEmpty();
  }

  @Test
  void pipeScanFailureIsHeldOnlyWhileTheGateIsDown() {
    ScanResult failed = result(Verdict.ERROR, Reason.SCAN_FAILED);
    assertThat(RequestTriage.held(failed, DOWN)).contains(new Triage.Retry("clamd unreachable"));
    assertThat(RequestTriage.held(failed, UP)).isEmpty();
    assertThat(RequestTriage.held(result(Verdict.CLEAN, null), DOWN)).isEmpty();
  }

  @Test
  void unroutableForwardNamesTheQueue() {
    Triage.DeadLetter letter = RequestTriage.forwardUnroutable("uploads.clean", "does not exist");
    assertThat(letter.reason()).isEqualTo(DeadLetterReason.FORWARD_UNROUTABLE);
    assertThat(letter.detail()).contains("uploads.clean").contains("does not exist");
  }
}
