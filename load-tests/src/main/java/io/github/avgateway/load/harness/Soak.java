package io.github.avgateway.load.harness;

import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.load.Payloads;
import io.github.avgateway.solr.SolrHistoryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.solr.client.solrj.SolrQuery;

/**
 * The soak: N small requests (1 KiB, every 100th EICAR) through the AMQP gateway with history on, a
 * fixed number in flight; the gateway's heap is logged every 5 s. Afterwards: requests without a
 * reply (lost), wrong verdicts, and the number of history documents once the gateway has stopped
 * (one per request expected). Bounded by {@code --soak-max-minutes}.
 */
final class Soak {

  private static final int WINDOW = 128;
  private final Options options;
  private final Report report;

  Soak(Options options, Report report) {
    this.options = options;
    this.report = report;
  }

  void run() throws Exception {
    Path work = options.work();
    Files.createDirectories(work);
    Path heapLog = work.resolve("soak-heap.log");
    Files.deleteIfExists(heapLog);
    System.setProperty("harness.gatewayHeapLog", heapLog.toString());
    String slug = "gateway-amqp-soak";
    Path solr = work.resolve("solr-" + slug);
    GatewayRuns.deleteTree(solr);
    List<String> args =
        List.of(
            "amqp",
            "on",
            "--avgateway.solr.embedded.home=" + solr,
            "--avgateway.clamd.endpoints=" + options.clamdEndpoint(),
            "--spring.rabbitmq.host=" + options.rabbitHost(),
            "--spring.rabbitmq.port=" + options.rabbitPort(),
            "--avgateway.amqp.request-queue=av.perf.soak",
            "--avgateway.amqp.dead-letter-queue=av.perf.dead-letters",
            "--avgateway.amqp.dead-letter-exchange=av.perf.dlx",
            "--spring.main.banner-mode=off",
            "--logging.config=" + logConfig());
    byte[] clean = Payloads.random(1024, 99);
    byte[] eicar = Payloads.eicar();
    AtomicLong answered = new AtomicLong();
    AtomicLong wrong = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    long sent = 0;
    long started;
    report.note(
        "# soak: %d requests, window %d, load average %s",
        options.soakRequests(), WINDOW, Report.loadAverage());
    try (ChildJvm gateway =
            new ChildJvm(
                GatewayLauncher.class.getName(),
                Stream.concat(
                        GatewayRuns.GATEWAY_JVM.stream(), Stream.of("-Dharness.heapLog=" + heapLog))
                    .toList(),
                args,
                work.resolve(slug + ".log"));
        Transport driver =
            new AmqpTransport(
                options.rabbitHost(), options.rabbitPort(), "av.perf.soak", 4, true)) {
      if (!gateway.awaitReady(Duration.ofSeconds(120))) {
        report.note("# soak: the gateway did not start");
        return;
      }
      Semaphore slots = new Semaphore(WINDOW);
      started = System.nanoTime();
      long deadline = started + options.soakMax().toNanos();
      for (; sent < options.soakRequests() && System.nanoTime() < deadline; sent++) {
        slots.acquire();
        boolean infected = sent % 100 == 99;
        Verdict expected = infected ? Verdict.INFECTED : Verdict.CLEAN;
        CompletableFuture<Verdict> reply = driver.send(infected ? eicar : clean);
        reply
            .orTimeout(120, TimeUnit.SECONDS)
            .whenComplete((verdict, error) -> {
              if (error != null) {
                failed.incrementAndGet();
              } else {
                answered.incrementAndGet();
                if (verdict != expected) {
                  wrong.incrementAndGet();
                }
              }
              slots.release();
            });
        if (sent % 100_000 == 0) {
          report.note(
              "# soak: %d sent, %d answered, %.0f s, load average %s",
              sent, answered.get(), (System.nanoTime() - started) / 1e9, Report.loadAverage());
        }
      }
      slots.tryAcquire(WINDOW, 150, TimeUnit.SECONDS);
      double seconds = (System.nanoTime() - started) / 1e9;
      report.note(
          "# soak: sent %d, answered %d, no reply %d (lost), wrong verdict %d, %.0f s, %.0f req/s",
          sent,
          answered.get(),
          sent - answered.get(),
          wrong.get(),
          seconds,
          answered.get() / seconds);
    }
    report.note("# soak: gateway stopped; heap samples (used, old gen after last GC):");
    for (String line : Files.readAllLines(heapLog)) {
      report.note("#   %s", line);
    }
    try (SolrHistoryStore store = SolrHistoryStore.embedded(solr, "history")) {
      long docs =
          store
              .client()
              .query(store.collection(), new SolrQuery("*:*").setRows(0))
              .getResults()
              .getNumFound();
      report.note("# soak: history documents %d for %d requests sent", docs, sent);
    }
  }

  private String logConfig() {
    return options.repo().resolve("load-tests/src/main/resources/logback-gateway.xml").toString();
  }
}
