package io.github.avgateway.amqp.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.mockingDetails;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.timeout;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.verifyNoMoreInteractions;
import static org.mockito.Mockito.when;

import com.rabbitmq.client.Channel;
import io.github.avgateway.amqp.reply.AmqpReplyPublisher;
import io.github.avgateway.amqp.reply.PublishOutcome;
import io.github.avgateway.amqp.triage.AmqpReplyDestinationPolicy;
import io.github.avgateway.amqp.triage.AmqpRequestMapper;
import io.github.avgateway.amqp.triage.AmqpRequestTriage;
import io.github.avgateway.core.history.HistoryStream;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.pipeline.VerdictCache;
import io.github.avgateway.core.testing.FakeScanner;
import io.github.avgateway.core.testing.InMemoryHistory;
import io.github.avgateway.core.testing.SwitchableGate;
import io.github.avgateway.core.trace.RequestTracer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.mockito.InOrder;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.connection.ChannelProxy;

class ScanBatchListenerTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  private final FakeScanner scanner = new FakeScanner();
  private final InMemoryHistory history = new InMemoryHistory();
  private final SwitchableGate gate = new SwitchableGate();
  private final AmqpReplyPublisher publisher = BatchPublishers.mockRunningBatches();

  private final Channel channel = mock(Channel.class);
  private final AtomicInteger troubles = new AtomicInteger();
  private final AtomicInteger historyMessages = new AtomicInteger();
  private AmqpIntakeHold hold;
  private volatile HistoryStream<PublishOutcome> refusing;

  /** When set, history messages wait here for the test to confirm them. */
  private volatile BlockingQueue<CompletableFuture<PublishOutcome>> unconfirmedHistory;

  private final ScanBatchListener listener = listener(Duration.ofSeconds(5), Duration.ofMinutes(1));

  private ScanBatchListener listener(Duration confirmTimeout) {
    return listener(confirmTimeout, Duration.ofMinutes(1));
  }

  private ScanBatchListener listener(Duration confirmTimeout, Duration holdLimit) {
    return listener(confirmTimeout, holdLimit, Duration.ofSeconds(10));
  }

  private ScanBatchListener listener(
      Duration confirmTimeout, Duration holdLimit, Duration historyTimeout) {
    AmqpRequestTriage triage =
        new AmqpRequestTriage(
            new AmqpRequestMapper(),
            new AmqpReplyDestinationPolicy(Pattern.compile("av\\.reply\\..+"), null, Set.of()),
            5,
            Clock.systemUTC());
    ScanPipeline pipeline =
        new ScanPipeline(scanner, VerdictCache.disabled(), 1 << 20, Clock.systemUTC(), "gw");
    ScanBatchListener l =
        new ScanBatchListener(
            triage,
            pipeline,
            publisher,
            this::publishHistory,
            hold = new AmqpIntakeHold(gate, Duration.ofMillis(5), holdLimit),
            confirmTimeout,
            historyTimeout,
            RequestTracer.NONE);
    l.onIntakeTrouble(troubles::incrementAndGet);
    return l;
  }

  /** The broker's side of the history stream: keeps the documents, or nacks while refusing. */
  private CompletableFuture<PublishOutcome> publishHistory(List<MessageInfo> documents) {
    HistoryStream<PublishOutcome> refuse = refusing;
    if (refuse != null) {
      return refuse.send(documents);
    }
    historyMessages.incrementAndGet();
    documents.forEach(history::record);
    BlockingQueue<CompletableFuture<PublishOutcome>> waiting = unconfirmedHistory;
    if (waiting == null) {
      return confirmed();
    }
    CompletableFuture<PublishOutcome> confirm = new CompletableFuture<>();
    waiting.add(confirm);
    return confirm;
  }

  @Test
  void aConfirmedBatchWithItsHistoryMessageIsAcknowledgedWithOneMultipleAck() throws Exception {
    when(publisher.reply(anyString(), any())).thenReturn(confirmed());

    listener.onMessageBatch(
        List.of(request(1, "m-1", "av.reply.a"), request(2, "m-2", "av.reply.a")), channel);

    verify(channel).basicAck(2, true);
    verifyNoMoreInteractions(channel);
    assertThat(history.find("amqp", "m-1").orElseThrow().disposition())
        .isEqualTo(Disposition.REPLIED);
    assertThat(history.find("amqp", "m-2")).isPresent();
    assertThat(historyMessages.get()).as("one history message per batch").isEqualTo(1);
  }

  @Test
  void anUnroutableReplyBecomesARecordedDeadLetterAndTheRestOfTheBatchIsServed() throws Exception {
    when(publisher.reply(anyString(), any())).thenReturn(confirmed());
    when(publisher.reply(org.mockito.ArgumentMatchers.eq("av.reply.gone"), any()))
        .thenReturn(
            CompletableFuture.completedFuture(new PublishOutcome.Returned(312, "NO_ROUTE")));
    when(publisher.deadLetter(any())).thenReturn(confirmed());

    listener.onMessageBatch(
        List.of(request(1, "m-1", "av.reply.gone"), request(2, "m-2", "av.reply.a")), channel);

    verify(channel).basicAck(2, true);
    MessageInfo dead = history.find("amqp", "m-1").orElseThrow();
    assertThat(dead.disposition()).isEqualTo(Disposition.DEAD_LETTERED);
    assertThat(dead.deadLetterReason()).isEqualTo(DeadLetterReason.REPLY_UNROUTABLE);
    assertThat(dead.verdict()).isEqualTo(Verdict.CLEAN);
    assertThat(history.find("amqp", "m-2").orElseThrow().disposition())
        .isEqualTo(Disposition.REPLIED);
  }

  @Test
  void aReplyWithoutConfirmIsRequeuedAndNotRecorded() throws Exception {
    when(publisher.reply(anyString(), any()))
        .thenReturn(CompletableFuture.completedFuture(new PublishOutcome.Failed("nack")))
        .thenReturn(confirmed());

    listener.onMessageBatch(
        List.of(request(1, "m-1", "av.reply.a"), request(2, "m-2", "av.reply.a")), channel);

    verify(channel).basicNack(1, false, true);
    verify(channel).basicAck(2, false);
    assertThat(history.find("amqp", "m-1")).isEmpty();
  }

  @Test
  void aBatchWithANackedReplyIsHeldForTheBackOffBeforeItGoesBackToTheQueue() throws Exception {
    assertThat(timeToRequeue(new PublishOutcome.Nacked()))
        .as("the consumer held the batch")
        .isGreaterThanOrEqualTo(ScanBatchListener.NACK_BACKOFF);
    verify(channel).basicAck(2, false);
    assertThat(history.find("amqp", "m-1")).isEmpty();
  }

  @Test
  void aBatchWhoseReplyFailedWithoutANackIsNotHeld() throws Exception {
    assertThat(timeToRequeue(new PublishOutcome.Failed("channel closed")))
        .isLessThan(ScanBatchListener.NACK_BACKOFF);
  }

  @Test
  void aStoppingGatewayEndsTheBackOffAtOnce() throws Exception {
    hold.stop();
    assertThat(timeToRequeue(new PublishOutcome.Nacked()))
        .isLessThan(ScanBatchListener.NACK_BACKOFF);
  }

  /**
   * Runs a batch of two whose first reply ends with {@code outcome} and the second is confirmed;
   * returns how long the listener took, having checked that the first request was requeued.
   */
  private Duration timeToRequeue(PublishOutcome outcome) throws Exception {
    when(publisher.reply(anyString(), any()))
        .thenReturn(CompletableFuture.completedFuture(outcome))
        .thenReturn(confirmed());
    long start = System.nanoTime();
    listener.onMessageBatch(
        List.of(request(1, "m-1", "av.reply.a"), request(2, "m-2", "av.reply.a")), channel);
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    verify(channel).basicNack(1, false, true);
    return took;
  }

  @Test
  void aDeadLetterNotConfirmedWithTheRequestsHeadersIsPublishedBareOnceAndAcknowledged()
      throws Exception {
    when(publisher.deadLetter(any()))
        .thenReturn(CompletableFuture.completedFuture(new PublishOutcome.Failed("frame too large")))
        .thenReturn(confirmed());
    Message request = request(4, "m-4", "elsewhere");
    request.getMessageProperties().setHeader("tenant", "acme");

    listener.onMessageBatch(List.of(request), channel);

    ArgumentCaptor<Message> letters = ArgumentCaptor.forClass(Message.class);
    verify(publisher, times(2)).deadLetter(letters.capture());
    assertThat(letters.getAllValues().get(0).getMessageProperties().getHeaders())
        .containsKey("tenant");
    assertThat(letters.getAllValues().get(1).getMessageProperties().getHeaders())
        .containsEntry("avReason", "REPLY_DESTINATION_NOT_ALLOWED")
        .doesNotContainKey("tenant");
    verify(channel).basicAck(4, true);
    assertThat(history.find("amqp", "m-4").orElseThrow().deadLetterReason())
        .isEqualTo(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED);
  }

  @Test
  void aBareDeadLetterNotConfirmedEitherIsRequeued() throws Exception {
    when(publisher.deadLetter(any()))
        .thenReturn(CompletableFuture.completedFuture(new PublishOutcome.Failed("broker away")));

    listener.onMessageBatch(List.of(request(5, "m-5", "elsewhere")), channel);

    verify(publisher, times(2)).deadLetter(any());
    verify(channel).basicNack(5, false, true);
    assertThat(history.calls()).isEmpty();
  }

  @Test
  void aConfirmThatNeverComesRequeuesAfterTheTimeout() throws Exception {
    when(publisher.reply(anyString(), any())).thenReturn(new CompletableFuture<>());

    listener(Duration.ofMillis(50))
        .onMessageBatch(List.of(request(7, "m-7", "av.reply.a")), channel);

    verify(channel).basicNack(7, false, true);
    assertThat(history.calls()).isEmpty();
  }

  @Test
  void aHistoryMessageRefusedUntilTheHoldRunsOutRequeuesTheBatchAndReportsTrouble()
      throws Exception {
    when(publisher.reply(anyString(), any())).thenReturn(confirmed());
    refusing =
        documents -> {
          gate.down("history backlog full");
          return CompletableFuture.completedFuture(new PublishOutcome.Nacked());
        };

    listener(Duration.ofSeconds(5), Duration.ofMillis(50))
        .onMessageBatch(
            List.of(request(1, "m-1", "av.reply.a"), request(2, "m-2", "av.reply.a")), channel);

    verify(channel, timeout(WAIT.toMillis())).basicNack(2, false, true);
    verify(channel).basicNack(1, false, true);
    assertThat(troubles.get()).isPositive();
    assertThat(history.calls()).isEmpty();
  }

  @Test
  void whileTheGateIsDownTheBatchIsHeldUnscannedAndServedOnceItIsUp() throws Exception {
    when(publisher.reply(anyString(), any())).thenReturn(confirmed());
    gate.down("clamd unreachable");

    Thread consumer = inBackground(List.of(request(3, "m-3", "av.reply.a")));
    await().atMost(WAIT).until(() -> troubles.get() > 0);
    assertThat(consumer.isAlive()).as("holding").isTrue();
    assertThat(scanner.scans()).isZero();
    verifyNoInteractions(channel);

    gate.up();
    consumer.join(WAIT.toMillis());
    verify(channel).basicAck(3, true);
    verify(channel, never()).basicNack(anyLong(), anyBoolean(), anyBoolean());
    assertThat(history.find("amqp", "m-3")).isPresent();
  }

  @Test
  void aHoldThatRunsOutRequeuesTheBatchUnscanned() throws Exception {
    gate.down("clamd unreachable");

    listener(Duration.ofSeconds(5), Duration.ofMillis(50))
        .onMessageBatch(List.of(request(3, "m-3", "av.reply.a")), channel);

    verify(channel).basicNack(3, false, true);
    verify(publisher, never()).reply(anyString(), any());
    assertThat(scanner.scans()).isZero();
  }

  @Test
  void aFullBacklogHoldsTheBatchAndItsHistoryIsPublishedAgainWithoutASecondReply()
      throws Exception {
    when(publisher.reply(anyString(), any())).thenReturn(confirmed());
    AtomicInteger nacks = new AtomicInteger();
    refusing =
        documents -> {
          nacks.incrementAndGet();
          gate.down("history backlog full");
          return CompletableFuture.completedFuture(new PublishOutcome.Nacked());
        };

    listener.onMessageBatch(List.of(request(1, "m-1", "av.reply.a")), channel);
    await().atMost(WAIT).until(() -> nacks.get() > 0 && troubles.get() > 0);
    await("the held batch is neither acknowledged nor requeued")
        .during(Duration.ofMillis(100))
        .atMost(WAIT)
        .until(() -> mockingDetails(channel).getInvocations().isEmpty());
    verifyNoInteractions(channel);
    refusing = null;
    gate.up();

    verify(channel, timeout(WAIT.toMillis())).basicAck(1, true);
    verify(channel, never()).basicNack(anyLong(), anyBoolean(), anyBoolean());
    verify(publisher, times(1)).reply(anyString(), any());
    assertThat(history.find("amqp", "m-1")).isPresent();
  }

  @Test
  void aScanFailedBecauseClamdWentAwayIsScannedAgainOnceItIsBack() throws Exception {
    when(publisher.reply(anyString(), any())).thenReturn(confirmed());
    scanner.failNext(() -> gate.down("clamd endpoint marked down"));

    Thread consumer = inBackground(List.of(request(5, "m-5", "av.reply.a")));
    await().atMost(WAIT).until(() -> troubles.get() > 0);
    gate.up();
    consumer.join(WAIT.toMillis());

    verify(channel).basicAck(5, true);
    assertThat(scanner.scans()).isEqualTo(2);
    assertThat(history.find("amqp", "m-5").orElseThrow().verdict()).isEqualTo(Verdict.CLEAN);
  }

  @Test
  void aScanFailedWhileClamdWasAwayForAMomentIsScannedAgainThoughIntakeIsOpenAgain()
      throws Exception {
    when(publisher.reply(anyString(), any())).thenReturn(confirmed());
    // clamd marked down and found back by a probe before the batch asks the gate
    scanner.failNext(() -> gate.blink("clamd endpoint marked down"));

    listener.onMessageBatch(List.of(request(6, "m-6", "av.reply.a")), channel);

    verify(channel).basicAck(6, true);
    assertThat(scanner.scans()).isEqualTo(2);
    assertThat(history.find("amqp", "m-6").orElseThrow().verdict()).isEqualTo(Verdict.CLEAN);
  }

  @Test
  void aScanFailedWhileTheGateStayedOpenIsAnsweredError() throws Exception {
    when(publisher.reply(anyString(), any())).thenReturn(confirmed());
    scanner.failNext(() -> {});

    listener.onMessageBatch(List.of(request(7, "m-7", "av.reply.a")), channel);

    verify(channel).basicAck(7, true);
    assertThat(scanner.scans()).isEqualTo(1);
    assertThat(history.find("amqp", "m-7").orElseThrow().verdict()).isEqualTo(Verdict.ERROR);
  }

  private Thread inBackground(List<Message> batch) {
    return Thread.ofPlatform().start(() -> listener.onMessageBatch(batch, channel));
  }

  @Test
  void badRequestsAreDeadLetteredWithTheirReasonAndRecorded() throws Exception {
    when(publisher.deadLetter(any())).thenReturn(confirmed());

    listener.onMessageBatch(
        List.of(
            request(1, null, "av.reply.a"),
            request(2, "m-2", null),
            request(3, "m-3", "elsewhere")),
        channel);

    verify(channel).basicAck(3, true);
    verify(publisher, never()).reply(anyString(), any());
    assertThat(history.documents().values())
        .extracting(MessageInfo::deadLetterReason)
        .containsExactlyInAnyOrder(
            DeadLetterReason.MALFORMED_REQUEST,
            DeadLetterReason.NO_REPLY_DESTINATION,
            DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED);
    assertThat(scanner.scans())
        .as("neither the malformed one nor the refused reply_to is scanned")
        .isEqualTo(1);
  }

  @Test
  void anUnroutableDeadLetterRequeuesTheRequest() throws Exception {
    when(publisher.deadLetter(any()))
        .thenReturn(
            CompletableFuture.completedFuture(new PublishOutcome.Returned(312, "NO_ROUTE")));

    listener.onMessageBatch(List.of(request(4, "m-4", null)), channel);

    verify(channel).basicNack(4, false, true);
    assertThat(history.calls()).isEmpty();
  }

  @Test
  void theConsumerTakesItsNextBatchBeforeTheHistoryConfirmAndBatchesAreAcknowledgedInOrder()
      throws Exception {
    when(publisher.reply(anyString(), any())).thenReturn(confirmed());
    unconfirmedHistory = new LinkedBlockingQueue<>();

    listener.onMessageBatch(
        List.of(request(1, "m-1", "av.reply.a"), request(2, "m-2", "av.reply.a")), channel);
    listener.onMessageBatch(List.of(request(3, "m-3", "av.reply.a")), channel);
    CompletableFuture<PublishOutcome> first = unconfirmedHistory.take();
    CompletableFuture<PublishOutcome> second = unconfirmedHistory.take();

    verifyNoInteractions(channel);
    second.complete(new PublishOutcome.Confirmed());
    verifyNoInteractions(channel);
    first.complete(new PublishOutcome.Confirmed());

    InOrder order = inOrder(channel);
    order.verify(channel).basicAck(2, true);
    order.verify(channel).basicAck(3, true);
    verifyNoMoreInteractions(channel);
  }

  @Test
  void aBatchWhoseHistoryFailsIsRequeuedWithoutHoldingUpTheBatchAfterIt() throws Exception {
    when(publisher.reply(anyString(), any())).thenReturn(confirmed());
    unconfirmedHistory = new LinkedBlockingQueue<>();

    listener.onMessageBatch(List.of(request(1, "m-1", "av.reply.a")), channel);
    listener.onMessageBatch(List.of(request(2, "m-2", "av.reply.a")), channel);
    unconfirmedHistory.take().complete(new PublishOutcome.Failed("channel closed"));
    unconfirmedHistory.take().complete(new PublishOutcome.Confirmed());

    InOrder order = inOrder(channel);
    order.verify(channel).basicNack(1, false, true);
    order.verify(channel).basicAck(2, true);
    verifyNoMoreInteractions(channel);
  }

  @Test
  void aHistoryConfirmThatNeverComesRequeuesTheBatchAfterTheHistoryTimeout() throws Exception {
    when(publisher.reply(anyString(), any())).thenReturn(confirmed());
    unconfirmedHistory = new LinkedBlockingQueue<>();

    listener(Duration.ofSeconds(5), Duration.ofMinutes(1), Duration.ofMillis(200))
        .onMessageBatch(List.of(request(1, "m-1", "av.reply.a")), channel);

    verify(channel, timeout(WAIT.toMillis())).basicNack(1, false, true);
    verify(channel, never()).basicAck(anyLong(), anyBoolean());
  }

  @Test
  void whenStoppingTheConsumerReturnsOnlyOnceItsBatchIsAcknowledged() throws Exception {
    when(publisher.reply(anyString(), any())).thenReturn(confirmed());
    when(channel.isOpen()).thenReturn(true);
    unconfirmedHistory = new LinkedBlockingQueue<>();
    listener.onMessageBatch(List.of(request(1, "m-1", "av.reply.a")), channel);
    assertThat(listener.awaitAcknowledged(Duration.ofMillis(20)))
        .as("the first batch waits for its history confirm")
        .isFalse();
    hold.stop();

    Thread consumer = inBackground(List.of(request(2, "m-2", "av.reply.a")));
    CompletableFuture<PublishOutcome> first = unconfirmedHistory.take();
    CompletableFuture<PublishOutcome> second = unconfirmedHistory.take();
    await("the consumer waits for its batch's acknowledgement")
        .during(Duration.ofMillis(100))
        .atMost(WAIT)
        .until(consumer::isAlive);
    assertThat(consumer.isAlive()).as("waiting for its batch's acknowledgement").isTrue();
    first.complete(new PublishOutcome.Confirmed());
    second.complete(new PublishOutcome.Confirmed());
    consumer.join(WAIT.toMillis());

    assertThat(consumer.isAlive()).isFalse();
    assertThat(listener.awaitAcknowledged(Duration.ZERO)).isTrue();
    InOrder order = inOrder(channel);
    order.verify(channel).basicAck(1, true);
    order.verify(channel).basicAck(2, true);
  }

  @Test
  void acknowledgementsGoToTheBrokerChannelBehindSpringsProxy() throws Exception {
    when(publisher.reply(anyString(), any())).thenReturn(confirmed());
    Channel target = mock(Channel.class);
    ChannelProxy proxy = mock(ChannelProxy.class);
    when(proxy.getTargetChannel()).thenReturn(target);

    listener.onMessageBatch(List.of(request(1, "m-1", "av.reply.a")), proxy);

    verify(target).basicAck(1, true);
    verify(proxy, never()).basicAck(anyLong(), anyBoolean());
  }

  private static CompletableFuture<PublishOutcome> confirmed() {
    return CompletableFuture.completedFuture(new PublishOutcome.Confirmed());
  }

  private static Message request(long tag, String messageId, String replyTo) {
    MessageProperties props = new MessageProperties();
    props.setDeliveryTag(tag);
    props.setMessageId(messageId);
    props.setReplyTo(replyTo);
    return new Message(("file " + tag).getBytes(StandardCharsets.US_ASCII), props);
  }
}
