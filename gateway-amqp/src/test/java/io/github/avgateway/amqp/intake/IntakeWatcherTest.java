package io.github.avgateway.amqp.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.github.avgateway.core.testing.SwitchableGate;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.rabbit.listener.MessageListenerContainer;

class IntakeWatcherTest {

  private final SwitchableGate gate = new SwitchableGate();
  private final AtomicBoolean running = new AtomicBoolean();
  private final MessageListenerContainer container = fakeContainer(running);
  private final IntakeWatcher watcher =
      new IntakeWatcher(
          gate,
          container,
          Duration.ofMillis(10),
          new AmqpIntakeHold(gate, Duration.ofMillis(10), Duration.ofMinutes(1)),
          "request queue av.test.requests");

  @AfterEach
  void stop() {
    watcher.stop();
  }

  @Test
  void consumersDoNotStartWhileIntakeIsClosed() {
    gate.down("clamd self-test has not finished");
    watcher.start();
    assertThat(watcher.paused()).isTrue();
    verify(container, never()).start();

    gate.up();
    await().atMost(Duration.ofSeconds(5)).until(running::get);
    assertThat(watcher.paused()).isFalse();
  }

  @Test
  void aPauseKeepsTheConsumersRunningSoThatNoRequestIsReturnedToTheQueue() {
    watcher.start();
    assertThat(running).isTrue();

    gate.down("Solr refuses writes");
    await().atMost(Duration.ofSeconds(5)).until(watcher::paused);
    assertThat(running).as("consumers hold their batches instead of stopping").isTrue();
    gate.up();
    await().atMost(Duration.ofSeconds(5)).until(() -> !watcher.paused());
    verify(container, never()).stop();
  }

  private static MessageListenerContainer fakeContainer(AtomicBoolean running) {
    MessageListenerContainer container = mock(MessageListenerContainer.class);
    doAnswer(i -> running.getAndSet(true)).when(container).start();
    doAnswer(i -> running.getAndSet(false)).when(container).stop();
    when(container.isRunning()).thenAnswer(i -> running.get());
    return container;
  }
}
