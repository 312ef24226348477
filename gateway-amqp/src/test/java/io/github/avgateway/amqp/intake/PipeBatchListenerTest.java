package io.github.avgateway.amqp.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.rabbitmq.client.Channel;
import io.github.avgateway.amqp.reply.AmqpReplyPublisher;
import io.github.avgateway.amqp.reply.PublishOutcome;
import io.github.avgateway.amqp.triage.AmqpReplyDestinationPolicy;
import io.github.avgateway.amqp.triage.AmqpRequestMapper;
import io.github.avgateway.amqp.triage.AmqpRequestTriage;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.pipe.Pipe;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;

/** The batch listener on a clean-pipe inbox: forwards by verdict, with the request path's rules. */
class PipeBatchListenerTest {

  private static final Pipe PIPE = new Pipe("inbox", "clean", "quarantine", "rejected");
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final FakeScanner scanner = new FakeScanner();
  private final InMemoryHistory history = new InMemoryHistory();
  private final SwitchableGate gate = new SwitchableGate();
  private final AmqpReplyPublisher publisher = BatchPublishers.mockRunningBatches();

  private final Channel channel = mock(Channel.class);
  private final AtomicInteger troubles = new AtomicInteger();
  private final ScanBatchListener listener = listener();

  private ScanBatchListener listener() {
    AmqpRequestTriage triage =
        AmqpRequestTriage.forPipe(
            new AmqpRequestMapper(),
            new AmqpReplyDestinationPolicy(Pattern.compile("av\\.reply\\..+"), null, Set.of()),
            5,
            Clock.systemUTC(),
            PIPE);
    ScanPipeline pipeline =
        new ScanPipeline(scanner, VerdictCache.disabled(), 1 << 10, Clock.systemUTC(), "gw");
    ScanBatchListener l =
        new ScanBatchListener(
            triage,
            pipeline,
            publisher,
            documents -> {
              documents.forEach(history::record);
              return confirmed();
            },
            new AmqpIntakeHold(gate, Duration.ofMillis(5), Duration.ofMinutes(1)),
            Duration.ofSeconds(5),
            Duration.ofSeconds(5),
            RequestTracer.NONE);
    l.onIntakeTrouble(troubles::incrementAndGet);
    return l;
  }

  @Test
  void eachFileIsForwardedToTheOutletOfItsVerdictAndRecordedWithItsDisposition() throws Exception {
    when(publisher.toQueue(anyString(), any())).thenReturn(confirmed());

    listener.onMessageBatch(
        List.of(
            message(1, "p-1", "harmless", null),
            message(2, "p-2", "x " + FakeScanner.MARKER, null),
            message(3, "p-3", "x".repeat(2048), null)),
        channel);

    verify(channel).basicAck(3, true);
    assertThat(forwardedTo("clean").getMessageProperties().getHeaders())
        .containsEntry("avVerdict", "CLEAN");
    assertThat(forwardedTo("quarantine").getMessageProperties().getHeaders())
        .containsEntry("avVerdict", "INFECTED")
        .containsEntry("avSignature", FakeScanner.SIGNATURE);
    assertThat(forwardedTo("rejected").getMessageProperties().getHeaders())
        .containsEntry("avVerdict", "UNSCANNABLE")
        .containsEntry("avReason", "TOO_LARGE");
    assertThat(disposition("p-1")).isEqualTo(Disposition.FORWARDED_CLEAN);
    assertThat(disposition("p-2")).isEqualTo(Disposition.QUARANTINED);
    assertThat(disposition("p-3")).isEqualTo(Disposition.REJECTED);
    verify(publisher, never()).reply(anyString(), any());
  }

  @Test
  void aForwardTheBrokerCannotRouteIsDeadLetteredAsForwardUnroutable() throws Exception {
    when(publisher.toQueue(anyString(), any()))
        .thenReturn(
            CompletableFuture.completedFuture(new PublishOutcome.Returned(312, "NO_ROUTE")));
    when(publisher.deadLetter(any())).thenReturn(confirmed());

    listener.onMessageBatch(List.of(message(1, "p-1", "harmless", null)), channel);

    verify(channel).basicAck(1, true);
    ArgumentCaptor<Message> dead = ArgumentCaptor.forClass(Message.class);
    verify(publisher).deadLetter(dead.capture());
    assertThat(dead.getValue().getMessageProperties().getHeaders())
        .containsEntry("avReason", "FORWARD_UNROUTABLE")
        .hasEntrySatisfying("avReasonDetail", d -> assertThat(d.toString()).contains("clean"));
    MessageInfo doc = history.find("amqp", "p-1").orElseThrow();
    assertThat(doc.disposition()).isEqualTo(Disposition.DEAD_LETTERED);
    assertThat(doc.deadLetterReason()).isEqualTo(DeadLetterReason.FORWARD_UNROUTABLE);
  }

  @Test
  void anAllowedReplyToGetsAReplyTooAndAnUnconfirmedReplyRequeues() throws Exception {
    when(publisher.toQueue(anyString(), any())).thenReturn(confirmed());
    when(publisher.reply(eq("av.reply.a"), any())).thenReturn(confirmed());
    when(publisher.reply(eq("av.reply.b"), any()))
        .thenReturn(CompletableFuture.completedFuture(new PublishOutcome.Failed("channel lost")));
    when(publisher.reply(eq("av.reply.gone"), any()))
        .thenReturn(
            CompletableFuture.completedFuture(new PublishOutcome.Returned(312, "NO_ROUTE")));

    listener.onMessageBatch(
        List.of(
            message(1, "p-1", "one", "av.reply.a"),
            message(2, "p-2", "two", "av.reply.b"),
            message(3, "p-3", "three", "av.reply.gone"),
            message(4, "p-4", "four", "not-allowed")),
        channel);

    verify(channel).basicAck(1, false);
    verify(channel).basicNack(2, false, true);
    verify(channel).basicAck(3, false);
    verify(channel).basicAck(4, false);
    verify(publisher, never()).reply(eq("not-allowed"), any());
    assertThat(history.find("amqp", "p-2")).as("requeued, not recorded").isEmpty();
    assertThat(disposition("p-3")).isEqualTo(Disposition.FORWARDED_CLEAN);
    assertThat(disposition("p-4")).isEqualTo(Disposition.FORWARDED_CLEAN);
  }

  @Test
  void anUnconfirmedForwardIsRequeuedAndNotRecorded() throws Exception {
    when(publisher.toQueue(anyString(), any()))
        .thenReturn(CompletableFuture.completedFuture(new PublishOutcome.Nacked()));

    listener.onMessageBatch(List.of(message(1, "p-1", "harmless", null)), channel);

    verify(channel).basicNack(1, false, true);
    verify(publisher, never()).deadLetter(any());
    assertThat(history.calls()).isEmpty();
  }

  @Test
  void aScanFailedBecauseClamdWentAwayIsHeldAndForwardedCleanNeverRejected() throws Exception {
    when(publisher.toQueue(anyString(), any())).thenReturn(confirmed());
    scanner.failNext(() -> gate.down("clamd endpoint marked down"));

    Thread consumer =
        Thread.ofPlatform()
            .start(() ->
                listener.onMessageBatch(List.of(message(5, "p-5", "harmless", null)), channel));
    await().atMost(WAIT).until(() -> troubles.get() > 0);
    verify(publisher, never()).toQueue(anyString(), any());
    gate.up();
    consumer.join(WAIT.toMillis());

    verify(channel).basicAck(5, true);
    verify(publisher, never()).toQueue(eq("rejected"), any());
    assertThat(forwardedTo("clean")).isNotNull();
    assertThat(history.find("amqp", "p-5").orElseThrow().verdict()).isEqualTo(Verdict.CLEAN);
  }

  private Message forwardedTo(String queue) {
    ArgumentCaptor<Message> sent = ArgumentCaptor.forClass(Message.class);
    verify(publisher).toQueue(eq(queue), sent.capture());
    return sent.getValue();
  }

  private Disposition disposition(String id) {
    return history.find("amqp", id).orElseThrow().disposition();
  }

  private static CompletableFuture<PublishOutcome> confirmed() {
    return CompletableFuture.completedFuture(new PublishOutcome.Confirmed());
  }

  private static Message message(long tag, String messageId, String body, String replyTo) {
    MessageProperties props = new MessageProperties();
    props.setDeliveryTag(tag);
    props.setMessageId(messageId);
    props.setReplyTo(replyTo);
    return new Message(body.getBytes(StandardCharsets.US_ASCII), props);
  }
}
