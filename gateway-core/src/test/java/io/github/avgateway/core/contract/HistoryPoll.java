package io.github.avgateway.core.contract;

import io.github.avgateway.core.model.MessageInfo;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.awaitility.Awaitility;

/**
 * How the contract suites wait for a history document: polling the transport's history every 100
 * ms, from at once, until the request's document is visible and shows what the case waits for.
 */
final class HistoryPoll {

  /** Looks up the visible history document of a request id; empty may mean "not yet". */
  @FunctionalInterface
  interface Lookup {
    Optional<MessageInfo> find(String requestId) throws Exception;
  }

  private HistoryPoll() {}

  /**
   * The document of {@code requestId} once {@code lookup} finds it and it satisfies {@code done};
   * fails after {@code timeout}, saying {@code what} it waited for.
   */
  static MessageInfo await(
      String what, Duration timeout, Lookup lookup, String requestId, Predicate<MessageInfo> done) {
    AtomicReference<MessageInfo> found = new AtomicReference<>();
    Awaitility.await(what)
        .atMost(timeout)
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> {
          Optional<MessageInfo> doc = lookup.find(requestId);
          doc.ifPresent(found::set);
          return doc.filter(done).isPresent();
        });
    return found.get();
  }
}
