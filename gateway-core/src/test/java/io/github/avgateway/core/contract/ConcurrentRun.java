package io.github.avgateway.core.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.model.Verdict;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Many requests sent at once from several threads, a fifth of them EICAR, the rest clean. */
final class ConcurrentRun {

  /** One request of the run and the verdict it must get. */
  record Sent(String requestId, String correlationId, Verdict expected) {}

  private final List<Sent> sent;

  private ConcurrentRun(List<Sent> sent) {
    this.sent = List.copyOf(sent);
  }

  /** Sends {@code count} requests from {@code threads} threads and returns when all were sent. */
  static ConcurrentRun send(TransportDriver driver, int count, int threads) throws Exception {
    List<Future<Sent>> futures = new ArrayList<>(count);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int i = 0; i < count; i++) {
        int index = i;
        futures.add(pool.submit(() -> sendOne(driver, index)));
      }
      List<Sent> sent = new ArrayList<>(count);
      for (Future<Sent> future : futures) {
        sent.add(future.get());
      }
      return new ConcurrentRun(sent);
    } finally {
      pool.shutdownNow();
    }
  }

  private static Sent sendOne(TransportDriver driver, int index) throws Exception {
    boolean infected = index % 5 == 0;
    byte[] body = infected ? ContractFiles.eicar() : ContractFiles.clean(index);
    String correlationId = AbstractTransportContractTests.newCorrelationId();
    String requestId =
        driver.send(ContractRequest.of(body, "concurrent-" + index + ".bin", correlationId));
    return new Sent(requestId, correlationId, infected ? Verdict.INFECTED : Verdict.CLEAN);
  }

  List<Sent> sent() {
    return sent;
  }

  void awaitReplies(ContractInbox inbox, Duration timeout) {
    List<String> correlationIds = sent.stream().map(Sent::correlationId).toList();
    await("replies to all " + sent.size() + " concurrent requests")
        .atMost(timeout)
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> inbox.answered(correlationIds) == correlationIds.size());
  }

  /** Every request answered exactly once, with its own request id and the right verdict. */
  void checkReplies(ContractInbox inbox) {
    for (Sent one : sent) {
      List<ContractReply> replies = inbox.replies(one.correlationId());
      assertThat(replies).as("replies to %s", one.correlationId()).hasSize(1);
      ContractReply reply = replies.get(0);
      assertThat(reply.body().requestId()).isEqualTo(one.requestId());
      assertThat(reply.body().verdict()).isEqualTo(one.expected());
      assertThat(reply.verdict()).isEqualTo(one.expected().name());
      assertThat(inbox.deadLetters(one.correlationId())).isEmpty();
    }
  }
}
