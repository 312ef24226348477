package io.github.avgateway.load.harness;

import io.github.avgateway.core.model.Verdict;
import java.util.concurrent.CompletableFuture;

/**
 * One way of getting a verdict for a payload: raw clamd, a broker echo, or the gateway. The future
 * completes with the verdict the other side answered, or exceptionally when no answer came.
 */
interface Transport extends AutoCloseable {

  CompletableFuture<Verdict> send(byte[] payload);

  @Override
  void close();
}
