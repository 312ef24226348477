package io.github.avgateway.jms.fault;

import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.fault.TestFiles;
import io.github.avgateway.core.testing.PrivateClamd;
import io.github.avgateway.core.testing.TcpProxy;
import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.solr.StandaloneSolr;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The real processes of the JMS fault runs, all private to the test and on 127.0.0.1: an external
 * Artemis in its own JVM (killable, restarted on the same journal), a clamd of its own, and a
 * standalone Solr over HTTP (stoppable), each reached by the gateway through an in-JVM {@link
 * TcpProxy} so that connections can be cut, frozen or slowed. Nothing shared is touched; every
 * process is stopped by its own handle.
 */
final class FaultRig implements AutoCloseable {

  /** The clamd limits of the runs: short enough that a frozen clamd is noticed within seconds. */
  static final Duration CLAMD_MAX_SCAN_TIME = Duration.ofSeconds(8);

  static final int BROKER_MAX_DELIVERIES = 6;

  /**
   * The gateway's connection settings: a dead or silent broker connection is noticed within seconds
   * (Artemis' defaults: 30 s check, 60 s TTL), a blocked call gives up after 10 s; no transparent
   * reconnect, so a failure reaches the consumers, which reconnect by themselves.
   */
  static final String GATEWAY_PARAMS =
      "clientFailureCheckPeriod=2000&connectionTTL=6000&callTimeout=10000";

  final Path dir;
  final StandaloneSolr solr;
  final TcpProxy solrProxy;
  final PrivateClamd clamd;
  final TcpProxy clamdProxy;

  /** The one external Artemis, its port and a proxy to it; null and 0 in a pair's rig. */
  final int artemisPort;

  final JavaProcess artemis;
  final TcpProxy artemisProxy;

  /** The primary/backup pair, or null in a one-broker rig. */
  final ArtemisPair pair;

  private int artemisStarts = 1;

  private FaultRig(Path dir, StandaloneSolr solr, PrivateClamd clamd, boolean withPair)
      throws Exception {
    this.dir = dir;
    this.solr = solr;
    this.solrProxy = TcpProxy.to(URI.create(solr.baseUrl()).getPort());
    this.clamd = clamd;
    this.clamdProxy = TcpProxy.to(clamd.port());
    this.pair = withPair ? ArtemisPair.start(dir, BROKER_MAX_DELIVERIES) : null;
    this.artemisPort = withPair ? 0 : TestEnv.freePort();
    this.artemis =
        withPair
            ? null
            : JavaProcess.start(
                ArtemisBrokerMain.class.getName(),
                List.of("-Xmx256m", "-Dio.netty.noUnsafe=false"),
                List.of(
                    Integer.toString(artemisPort),
                    dir.resolve("artemis").toString(),
                    Integer.toString(BROKER_MAX_DELIVERIES)),
                dir.resolve("logs/artemis.log"));
    this.artemisProxy = withPair ? null : TcpProxy.to(artemisPort);
  }

  /** Starts everything; returns once Artemis, clamd and Solr all serve. */
  static FaultRig start() throws Exception {
    FaultRig rig = start(false);
    rig.artemis.awaitLog(ArtemisBrokerMain.READY, 1, Duration.ofSeconds(90));
    return rig;
  }

  /**
   * Starts Solr, clamd and a shared-store primary/backup pair ({@link ArtemisPair}) instead of one
   * broker; returns once the primary serves and knows its backup.
   */
  static FaultRig startPair() throws Exception {
    return start(true);
  }

  private static FaultRig start(boolean withPair) throws Exception {
    Path dir = Files.createTempDirectory("avgw-jms-fault-");
    StandaloneSolr solr = StandaloneSolr.start(dir.resolve("solr"));
    PrivateClamd clamd =
        PrivateClamd.start(Map.of("MaxScanTime", Long.toString(CLAMD_MAX_SCAN_TIME.toMillis())));
    return new FaultRig(dir, solr, clamd, withPair);
  }

  /** Where clients reach Artemis directly (a pair: both brokers, {@link ArtemisPair#urls()}). */
  String artemisUrl() {
    return pair != null ? pair.urls() : "tcp://127.0.0.1:" + artemisPort;
  }

  /** {@code kill -9} of the Artemis JVM: no clean shutdown, journal left as it was. */
  void killArtemis() throws InterruptedException {
    artemis.kill9();
  }

  /** Starts Artemis again on the same journal; returns once it accepts connections. */
  void restartArtemis() throws Exception {
    artemis.launch();
    artemis.awaitLog(ArtemisBrokerMain.READY, ++artemisStarts, Duration.ofSeconds(90));
  }

  /**
   * The settings of a gateway named {@code name} with {@code consumers} consumers on this rig's
   * Artemis at {@code artemisUrl} (direct or through the proxy), clamd and Solr (through theirs).
   */
  List<String> gatewayArgs(String name, String artemisUrl, int consumers) {
    List<String> args = new ArrayList<>();
    args.add("--avgateway.jms.mode=external");
    args.add("--avgateway.jms.url=" + withParams(artemisUrl, GATEWAY_PARAMS));
    args.addAll(gatewayArgs(name, consumers));
    return args;
  }

  /** {@code url} with {@code params} added after its own parameters, if it has any. */
  static String withParams(String url, String params) {
    return url + (url.contains("?") ? "&" : "?") + params;
  }

  /**
   * The settings of a gateway named {@code name} with {@code consumers} consumers on this rig's
   * clamd and Solr (through their proxies); the broker settings are the caller's.
   */
  List<String> gatewayArgs(String name, int consumers) {
    List<String> args = new ArrayList<>();
    args.add("--avgateway.pipeline.gateway-name=" + name);
    args.add("--avgateway.jms.consumers=" + consumers);
    args.add("--avgateway.jms.batch-size=16");
    // A history message holds at most one batch's worth (the buffer's default is 256 documents),
    // so that the indexer-kill row's 800 requests leave a backlog of at least 50 messages.
    args.add("--avgateway.history.buffer.max-documents=16");
    args.add("--avgateway.jms.max-delivery-attempts=" + (BROKER_MAX_DELIVERIES - 2));
    args.add("--avgateway.jms.receive-timeout=200ms");
    args.add("--avgateway.jms.pause-poll-interval=100ms");
    args.add("--avgateway.jms.pause-hold-time=60s");
    args.add("--avgateway.history.indexer.backoff-max=2s");
    args.add("--avgateway.clamd.endpoints=127.0.0.1:" + clamdProxy.port());
    args.add(
        "--avgateway.clamd.read-timeout=" + CLAMD_MAX_SCAN_TIME.plusSeconds(2).toMillis() + "ms");
    args.add("--avgateway.clamd.server.max-scan-time=" + CLAMD_MAX_SCAN_TIME.toMillis() + "ms");
    args.add("--avgateway.clamd.probe-interval=500ms");
    args.add("--avgateway.clamd.max-size=1MB");
    args.addAll(solrArgs());
    return args;
  }

  /**
   * The settings of an indexer-only process ({@code avgateway.mode=indexer}) named {@code name} on
   * this rig's Artemis (direct) and Solr (through its proxy), polling up to {@code batchSize}
   * history messages at a time.
   */
  List<String> indexerArgs(String name, int batchSize) {
    List<String> args = new ArrayList<>();
    args.add("--avgateway.mode=indexer");
    args.add("--avgateway.pipeline.gateway-name=" + name);
    args.add("--avgateway.jms.mode=external");
    args.add("--avgateway.jms.url=" + withParams(artemisUrl(), GATEWAY_PARAMS));
    args.add("--avgateway.history.indexer.batch-size=" + batchSize);
    args.add("--avgateway.history.indexer.backoff-max=2s");
    args.addAll(solrArgs());
    return args;
  }

  private List<String> solrArgs() {
    return List.of(
        "--avgateway.solr.mode=http",
        "--avgateway.solr.http.base-url=http://127.0.0.1:" + solrProxy.port() + "/solr",
        "--avgateway.solr.collection=" + StandaloneSolr.CORE,
        "--avgateway.solr.request-timeout=5s",
        "--avgateway.solr.batch.probe-interval=300ms");
  }

  /**
   * Starts a gateway ({@code FaultGatewayMain}) with {@code args} in a JVM of its own; with {@link
   * #indexerArgs} an indexer-only process.
   */
  JavaProcess startGateway(String name, List<String> args) throws java.io.IOException {
    return JavaProcess.start(
        FaultGatewayMain.class.getName(),
        List.of("-Xmx384m", "-Dio.netty.noUnsafe=false", "--enable-native-access=ALL-UNNAMED"),
        args,
        dir.resolve("logs/" + name + ".log"));
  }

  @Override
  public void close() throws Exception {
    for (AutoCloseable broker : new AutoCloseable[] {artemisProxy, artemis, pair}) {
      if (broker != null) {
        broker.close();
      }
    }
    clamdProxy.close();
    clamd.close();
    solrProxy.close();
    solr.close();
    for (String data : List.of("artemis", "artemis-shared", "embedded-artemis", "solr")) {
      TestFiles.deleteTree(dir.resolve(data));
    }
  }
}
