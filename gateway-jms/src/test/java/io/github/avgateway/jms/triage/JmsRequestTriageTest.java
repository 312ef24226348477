package io.github.avgateway.jms.triage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanRequest;
import io.github.avgateway.core.transport.DeadLetter;
import io.github.avgateway.core.transport.ReplyRoute;
import jakarta.jms.Destination;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.activemq.artemis.jms.client.ActiveMQDestination;
import org.junit.jupiter.api.Test;

class JmsRequestTriageTest {

  private static final Destination CALLER = ActiveMQDestination.createQueue("av.reply.caller");
  private static final Destination DEFAULT = mock(Destination.class);

  private final JmsRequestTriage routing =
      new JmsRequestTriage(
          3,
          new JmsReplyDestinationPolicy(
              Pattern.compile("av\\.reply\\..+"),
              Set.of("av.scan.requests", "av.scan.dead-letters")));

  private static ScanRequest request() {
    return new ScanRequest(
        "ID:1", null, "jms", null, null, null, Instant.EPOCH, false, ScanContent.of(new byte[0]));
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
            new DeadLetter(DeadLetterReason.MALFORMED_REQUEST, "TextMessage is not a request"));
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
  void replyGoesToTheCallersReplyDestinationBeforeTheDefault() {
    assertThat(routing.replyRoute(readable(CALLER, 1), DEFAULT))
        .isEqualTo(new ReplyRoute.To<>(CALLER));
    assertThat(routing.replyRoute(readable(null, 1), DEFAULT))
        .isEqualTo(new ReplyRoute.To<>(DEFAULT));
  }

  @Test
  void noReplyDestinationAndNoDefaultIsDeadLettered() {
    ReplyRoute<Destination> route = routing.replyRoute(readable(null, 1), null);
    assertThat(route).isInstanceOf(ReplyRoute.Undeliverable.class);
    assertThat(((ReplyRoute.Undeliverable<Destination>) route).deadLetter().reason())
        .isEqualTo(DeadLetterReason.NO_REPLY_DESTINATION);
  }

  @Test
  void refusedReplyDestinationIsUnroutable() {
    assertThat(JmsRequestTriage.unroutable("no such queue"))
        .isEqualTo(
            new DeadLetter(
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
    assertThat(routing.beforeScan(readable(temporary, 1))).isEmpty();
    assertThat(routing.replyRoute(readable(temporary, 1), null))
        .isEqualTo(new ReplyRoute.To<>(temporary));
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
  void unroutableForwardNamesTheQueue() {
    DeadLetter letter = JmsRequestTriage.forwardUnroutable("uploads.clean", "does not exist");
    assertThat(letter.reason()).isEqualTo(DeadLetterReason.FORWARD_UNROUTABLE);
    assertThat(letter.detail()).contains("uploads.clean").contains("does not exist");
  }
}
