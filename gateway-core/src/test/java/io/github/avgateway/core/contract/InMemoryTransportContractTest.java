package io.github.avgateway.core.contract;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanRequest;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.pipeline.VerdictCache;
import io.github.avgateway.core.testing.FakeScanner;
import io.github.avgateway.core.wire.WireNames;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * Runs the contract suite against an in-memory "transport" around the real {@link ScanPipeline},
 * with the shared {@link FakeScanner} (EICAR is INFECTED): checks the suite itself, not a
 * front-end.
 */
class InMemoryTransportContractTest extends AbstractTransportContractTests {

  @Override
  protected TransportDriver createDriver() {
    return new InMemoryDriver();
  }

  private static final class InMemoryDriver implements TransportDriver {
    private final ScanPipeline pipeline =
        new ScanPipeline(
            new FakeScanner(), VerdictCache.disabled(), 1 << 30, Clock.systemUTC(), "mem");
    private final ExecutorService gateway = Executors.newFixedThreadPool(4);
    private final Map<String, MessageInfo> history = new ConcurrentHashMap<>();
    private Consumer<ContractReply> replies;
    private Consumer<ContractDeadLetter> deadLetters;

    @Override
    public String transport() {
      return "mem";
    }

    @Override
    public void open(Consumer<ContractReply> replies, Consumer<ContractDeadLetter> deadLetters) {
      this.replies = replies;
      this.deadLetters = deadLetters;
    }

    @Override
    public String send(ContractRequest request) {
      ScanRequest scan = scanRequest(request.body(), request.filename(), request.correlationId());
      gateway.execute(() -> handle(scan, request.withReplyDestination()));
      return scan.requestId();
    }

    @Override
    public String sendMalformed(String correlationId) {
      ScanRequest scan = scanRequest(new byte[0], null, correlationId);
      gateway.execute(() -> {
        ScanResult result = pipeline.refuse(scan, Reason.MALFORMED_REQUEST, "not bytes");
        deadLetter(scan, result, DeadLetterReason.MALFORMED_REQUEST);
      });
      return null;
    }

    private void handle(ScanRequest scan, boolean withReplyDestination) {
      ScanResult result = pipeline.scan(scan);
      if (!withReplyDestination) {
        deadLetter(scan, result, DeadLetterReason.NO_REPLY_DESTINATION);
        return;
      }
      history.put(scan.requestId(), pipeline.replied(scan, result));
      replies.accept(
          new ContractReply(
              result.correlationId(),
              result.verdict().name(),
              result.firstSignature(),
              result.reason() == null ? null : result.reason().name(),
              WireNames.JSON_CONTENT_TYPE,
              result));
    }

    private void deadLetter(ScanRequest scan, ScanResult result, DeadLetterReason reason) {
      history.put(scan.requestId(), pipeline.deadLettered(scan, result, reason));
      deadLetters.accept(
          new ContractDeadLetter(scan.requestId(), scan.correlationId(), reason, reason.name()));
    }

    private ScanRequest scanRequest(byte[] body, String filename, String correlationId) {
      return new ScanRequest(
          UUID.randomUUID().toString(),
          correlationId,
          transport(),
          filename,
          null,
          null,
          Instant.now(),
          false,
          ScanContent.of(body));
    }

    @Override
    public Optional<MessageInfo> history(String requestId) {
      return Optional.ofNullable(history.get(requestId));
    }

    @Override
    public void close() {
      gateway.shutdownNow();
    }
  }
}
