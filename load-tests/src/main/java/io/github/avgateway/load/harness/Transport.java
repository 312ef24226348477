package io.github.avgateway.load.harness;

import io.github.avgateway.core.model.Verdict;
import java.util.concurrent.CompletableFuture;

/**
 * One way of getting a verdict for a payload: raw clamd, a broker echo, or the gateway. The future
 * completes with the verdict the other side answered, or exceptionally when no answer came.
 */
public interface Transport extends AutoCloseable {

  /** Sends one request; the future completes with the verdict answered. */
  CompletableFuture<Verdict> send(byte[] payload);

  @Override
  void close();
}
