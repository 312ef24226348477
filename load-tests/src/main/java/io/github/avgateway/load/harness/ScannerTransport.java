package io.github.avgateway.load.harness;

import io.github.avgateway.core.clamd.ClamdEndpoint;
import io.github.avgateway.core.clamd.ClamdScanner;
import io.github.avgateway.core.clamd.ClamdSettings;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.Verdict;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The gateway's own clamd client ({@link ClamdScanner}, pooled sessions) with no broker in front:
 * what the client adds over raw INSTREAM.
 */
final class ScannerTransport implements Transport {

  private final ClamdScanner scanner;
  private final ExecutorService threads;

  ScannerTransport(String host, int port, int threads) {
    this.scanner =
        ClamdScanner.start(
            ClamdSettings.builder(List.of(new ClamdEndpoint(host, port)))
                .poolSize(threads)
                .build());
    this.threads = Executors.newFixedThreadPool(threads);
  }

  @Override
  public CompletableFuture<Verdict> send(byte[] payload) {
    return CompletableFuture.supplyAsync(
        () -> scanner.scan(ScanContent.of(payload)).verdict(), threads);
  }

  @Override
  public void close() {
    threads.shutdownNow();
    scanner.close();
  }
}
