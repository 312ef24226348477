package io.github.avgateway.amqp.fault;

import static org.awaitility.Awaitility.await;

import io.github.avgateway.amqp.GatewayAmqpApplication;
import io.github.avgateway.core.fault.FaultLedger;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.fault.PrivateRabbit;
import io.github.avgateway.core.fault.TestFiles;
import io.github.avgateway.core.testing.PrivateClamd;
import io.github.avgateway.core.testing.TcpProxy;
import io.github.avgateway.solr.SolrDocumentMapper;
import io.github.avgateway.solr.StandaloneSolr;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.common.SolrDocument;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Everything one AMQP fault scenario class runs against, all private to it: a RabbitMQ node, a
 * clamd and a standalone Solr, each behind an in-JVM TCP proxy the scenarios cut, freeze or slow
 * down, and gateways in JVMs of their own (so that they can be killed) on the module's application
 * class. The callers ({@link FaultClient}) talk to the node directly. Closing stops everything it
 * started, by handle or pid.
 */
final class AmqpFaultRig implements AutoCloseable {

  static final String REQUESTS = "av.scan.requests";
  static final String DEAD_LETTERS = "av.scan.dead-letters";
  static final Duration START = Duration.ofSeconds(120);

  final Path dir;
  final PrivateRabbit rabbit;
  final TcpProxy rabbitProxy;
  final PrivateClamd clamd;
  final TcpProxy clamdProxy;
  final StandaloneSolr solr;
  final TcpProxy solrProxy;
  final FaultClient client;
  private final SolrClient solrClient;
  private final List<JavaProcess> gateways = new ArrayList<>();
  private final AtomicInteger runs = new AtomicInteger();

  AmqpFaultRig(String name) throws Exception {
    dir = Path.of("target", "fault", name).toAbsolutePath();
    TestFiles.deleteTree(dir);
    Files.createDirectories(dir);
    rabbit = PrivateRabbit.start();
    rabbitProxy = TcpProxy.to(rabbit.amqpPort());
    clamd = PrivateClamd.start(Map.of("MaxScanTime", "10000"));
    clamdProxy = TcpProxy.to(clamd.port());
    solr = StandaloneSolr.start(dir.resolve("solr-home"));
    solrProxy = TcpProxy.to(URI.create(solr.baseUrl()).getPort());
    solrClient = solr.client(Duration.ofSeconds(10));
    client = new FaultClient(rabbit.amqpPort(), REQUESTS, DEAD_LETTERS);
  }

  /** Starts one more gateway JVM and waits until it consumes; {@code extra} adds arguments. */
  JavaProcess startGateway(String name, String... extra) throws Exception {
    List<String> args = new ArrayList<>(gatewayArgs(name));
    args.addAll(List.of(extra));
    JavaProcess gateway =
        JavaProcess.start(
            GatewayAmqpApplication.class.getName(),
            List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-Xshare:auto"),
            args,
            dir.resolve(name + ".log"));
    gateways.add(gateway);
    awaitConsumers(consumers() + 2);
    return gateway;
  }

  private List<String> gatewayArgs(String name) {
    String solrUrl = "http://127.0.0.1:" + solrProxy.port() + "/solr";
    return List.of(
        "--spring.main.banner-mode=off",
        "--avgateway.pipeline.gateway-name=" + name,
        "--spring.rabbitmq.port=" + rabbitProxy.port(),
        "--spring.rabbitmq.requested-heartbeat=2s",
        "--avgateway.clamd.endpoints=127.0.0.1:" + clamdProxy.port(),
        "--avgateway.clamd.max-size=1MB",
        "--avgateway.clamd.read-timeout=15s",
        "--avgateway.clamd.server.max-scan-time=10s",
        "--avgateway.clamd.probe-interval=200ms",
        "--avgateway.solr.mode=http",
        "--avgateway.solr.http.base-url=" + solrUrl,
        "--avgateway.solr.request-timeout=4s",
        "--avgateway.solr.batch.probe-interval=200ms",
        "--avgateway.amqp.consumers=2",
        "--avgateway.amqp.delivery-limit=4",
        "--avgateway.amqp.intake-check-interval=100ms",
        "--avgateway.amqp.recovery-interval=500ms",
        "--avgateway.amqp.confirm-timeout=4s",
        "--avgateway.amqp.history-timeout=10s",
        // The indexer retries Solr within seconds once it is back, not after up to 30 s.
        "--avgateway.history.indexer.backoff-max=5s");
  }

  /** Consumers on the request queue now, as the node reports them. */
  int consumers() {
    var info = client.admin().getQueueInfo(REQUESTS);
    return info == null ? 0 : info.getConsumerCount();
  }

  /** Waits until the node reports at least {@code count} consumers on the request queue. */
  void awaitConsumers(int count) {
    await("at least " + count + " consumers on " + REQUESTS)
        .atMost(START)
        .pollInterval(Duration.ofMillis(250))
        .until(() -> consumers() >= count);
  }

  /** A fresh ledger for one scenario, receiving the client's replies and dead-letters. */
  FaultLedger ledger(String scenario) {
    FaultLedger ledger = new FaultLedger("amqp/" + scenario);
    client.use(ledger);
    return ledger;
  }

  /** A key prefix unique to one scenario run. */
  String run(String scenario) {
    return "fault-" + scenario + "-" + runs.incrementAndGet() + "-";
  }

  /**
   * Reads the history documents of {@code prefix} (a correlation id prefix) into the ledger until
   * every answered request has one, or {@code timeout} passed (the report then counts the rest).
   */
  void collectHistory(FaultLedger ledger, String prefix, Duration timeout) {
    try {
      await(ledger.scenario() + ": a history document for every answered request")
          .atMost(timeout)
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(300))
          .until(() -> {
            readHistory(ledger, prefix);
            return ledger.keysWithoutHistory().isEmpty();
          });
    } catch (ConditionTimeoutException e) {
      // the report counts what is missing
    }
  }

  private void readHistory(FaultLedger ledger, String prefix) {
    SolrQuery query = new SolrQuery("correlationId:" + prefix.replace("-", "\\-") + "*");
    query.setRows(100_000);
    try {
      for (SolrDocument doc : solrClient.query(StandaloneSolr.CORE, query).getResults()) {
        ledger.history(SolrDocumentMapper.fromDocument(doc));
      }
    } catch (Exception e) {
      // Solr stopped or restarting: the next poll tries again
    }
  }

  @Override
  public void close() throws Exception {
    for (JavaProcess gateway : gateways) {
      gateway.stop();
    }
    client.close();
    rabbitProxy.close();
    clamdProxy.close();
    solrProxy.close();
    solrClient.close();
    solr.close();
    clamd.close();
    rabbit.close();
  }
}
