package io.github.avgateway.load.harness;

import io.github.avgateway.core.clamd.ClamdEndpoint;
import io.github.avgateway.core.clamd.ClamdScanner;
import io.github.avgateway.core.clamd.ClamdSettings;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gateway's own clamd client ({@link ClamdScanner}, pooled sessions) with no broker in front:
 * what the client adds over raw INSTREAM. Its threads take requests from one shared line, or, with
 * {@code roundRobin}, each from a line of its own, requests dealt to them in turn as RabbitMQ deals
 * deliveries to a gateway's consumers (a request dealt to a busy thread waits there while another
 * may be idle).
 */
final class ScannerTransport implements Transport {

  private final ClamdScanner scanner;
  private final List<ExecutorService> lines = new ArrayList<>();
  private final AtomicInteger turn = new AtomicInteger();

  ScannerTransport(String host, int port, int threads) {
    this(host, port, threads, false);
  }

  ScannerTransport(String host, int port, int threads, boolean roundRobin) {
    this.scanner =
        ClamdScanner.start(
            ClamdSettings.builder(List.of(new ClamdEndpoint(host, port)))
                .poolSize(threads)
                .build());
    if (roundRobin) {
      for (int i = 0; i < threads; i++) {
        lines.add(Executors.newSingleThreadExecutor());
      }
    } else {
      lines.add(Executors.newFixedThreadPool(threads));
    }
  }

  @Override
  public CompletableFuture<Verdict> send(byte[] payload) {
    ExecutorService line = lines.get(Math.floorMod(turn.getAndIncrement(), lines.size()));
    return CompletableFuture.supplyAsync(
        () -> scanner.scan(ScanContent.of(payload)).verdict(), line);
  }

  @Override
  public void close() {
    lines.forEach(ExecutorService::shutdownNow);
    scanner.close();
  }
}
