package io.github.avgateway.amqp.fault;

import io.github.avgateway.core.fault.PrivateRabbit;
import io.github.avgateway.core.fault.RabbitCluster;
import io.github.avgateway.core.testing.PrivateClamd;
import io.github.avgateway.solr.StandaloneSolr;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The real processes of an {@link AmqpFaultRig}: one private RabbitMQ node or a private 3-node
 * cluster (the other null), a clamd and a standalone Solr.
 */
record RigProcesses(
    PrivateRabbit rabbit, RabbitCluster cluster, PrivateClamd clamd, StandaloneSolr solr) {

  /**
   * Starts them side by side (each waits for its own readiness only, so the rig is up in the time
   * of the slowest, not of all in a row); should one fail, those that started are stopped again and
   * its failure is thrown.
   */
  static RigProcesses start(Path dir, boolean cluster) throws Exception {
    try (ExecutorService starts = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<PrivateRabbit> rabbit = starts.submit(() -> cluster ? null : PrivateRabbit.start());
      Future<RabbitCluster> nodes =
          starts.submit(() -> cluster ? RabbitCluster.start(dir.resolve("rabbit-cluster")) : null);
      Future<PrivateClamd> clamd =
          starts.submit(() -> PrivateClamd.start(Map.of("MaxScanTime", "10000")));
      Future<StandaloneSolr> solr =
          starts.submit(() -> StandaloneSolr.start(dir.resolve("solr-home")));
      try {
        return new RigProcesses(rabbit.get(), nodes.get(), clamd.get(), solr.get());
      } catch (ExecutionException e) {
        for (Future<? extends AutoCloseable> start : List.of(rabbit, nodes, clamd, solr)) {
          closeIfStarted(start, e);
        }
        throw e.getCause() instanceof Exception cause ? cause : e;
      }
    }
  }

  private static void closeIfStarted(Future<? extends AutoCloseable> start, Exception failure) {
    try {
      AutoCloseable started = start.get();
      if (started != null) {
        started.close();
      }
    } catch (ExecutionException e) {
      // it did not start: nothing to stop
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure.addSuppressed(e);
    } catch (Exception e) {
      failure.addSuppressed(e);
    }
  }
}
