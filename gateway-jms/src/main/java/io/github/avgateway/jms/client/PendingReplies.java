package io.github.avgateway.jms.client;

import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.wire.ScanResultJson;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scans waiting for their reply, by correlation id. A reply nobody waits for (late, after a
 * timeout, or a duplicate after a redelivery) is dropped. Thread-safe.
 */
final class PendingReplies {

  private static final Logger log = LoggerFactory.getLogger(PendingReplies.class);

  private final Map<String, CompletableFuture<ScanResult>> waiting = new ConcurrentHashMap<>();

  /** A future for the reply with {@code correlationId}; forgotten once it completes. */
  CompletableFuture<ScanResult> expect(String correlationId) {
    CompletableFuture<ScanResult> future = new CompletableFuture<>();
    waiting.put(correlationId, future);
    future.whenComplete((result, failure) -> waiting.remove(correlationId, future));
    return future;
  }

  void fail(String correlationId, Throwable cause) {
    CompletableFuture<ScanResult> future = waiting.remove(correlationId);
    if (future != null) {
      future.completeExceptionally(cause);
    }
  }

  void failAll(Throwable cause) {
    waiting.keySet().forEach(id -> fail(id, cause));
  }

  /** Completes the future the reply belongs to. Called by the JMS listener thread. */
  void onReply(Message reply) {
    CompletableFuture<ScanResult> future;
    try {
      future = waiting.remove(reply.getJMSCorrelationID());
    } catch (JMSException e) {
      log.warn("Dropping a reply without a readable correlation id: {}", e.toString());
      return;
    }
    if (future == null) {
      log.debug("Dropping a reply nobody waits for");
      return;
    }
    try {
      future.complete(read(reply));
    } catch (JMSException | RuntimeException e) {
      future.completeExceptionally(e);
    }
  }

  private static ScanResult read(Message reply) throws JMSException {
    if (!(reply instanceof BytesMessage bytes)) {
      throw new IllegalArgumentException("the reply is not a BytesMessage");
    }
    byte[] body = new byte[(int) bytes.getBodyLength()];
    bytes.readBytes(body);
    return ScanResultJson.decode(body);
  }
}
