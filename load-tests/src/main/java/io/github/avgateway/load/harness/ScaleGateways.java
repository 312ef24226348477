package io.github.avgateway.load.harness;

import io.github.avgateway.jms.fault.ArtemisBrokerMain;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The gateway JVMs of a scale-out run: the modules' own applications ({@link GatewayLauncher}),
 * AMQP on the {@code av.scale.*} quorum queue of the shared RabbitMQ or JMS on the rig's external
 * Artemis, history in the rig's SolrCloud time-routed alias, clamd on the first 1 or 2 private
 * daemons. Only these JVMs are ever stopped or killed, by their own handles.
 */
final class ScaleGateways {

  private final ScaleRig rig;
  private final Options options;
  private final List<ChildJvm> running = new ArrayList<>();

  ScaleGateways(ScaleRig rig, Options options) {
    this.rig = rig;
    this.options = options;
  }

  /** Starts one more gateway on {@code clamds} of the private clamds and waits until it is up. */
  ChildJvm start(GatewayRuns.Kind kind, int clamds, List<String> extra) throws Exception {
    int index = running.size();
    ChildJvm gateway = launch(kind, index, clamds, extra, "");
    running.add(gateway);
    return gateway;
  }

  /** Replaces gateway {@code i} (after a kill) by a new JVM with the same settings. */
  ChildJvm restart(GatewayRuns.Kind kind, int i, int clamds, List<String> extra) throws Exception {
    ChildJvm gateway = launch(kind, i, clamds, extra, "-restarted");
    running.set(i, gateway);
    return gateway;
  }

  ChildJvm get(int i) {
    return running.get(i);
  }

  List<Long> pids() {
    return running.stream().map(ChildJvm::pid).toList();
  }

  /** Stops every gateway (SIGTERM: each finishes its batch and closes). */
  void stopAll() throws InterruptedException {
    for (ChildJvm gateway : running) {
      gateway.close();
    }
    running.clear();
  }

  private ChildJvm launch(
      GatewayRuns.Kind kind, int index, int clamds, List<String> extra, String suffix)
      throws Exception {
    String transport = kind.name().toLowerCase(Locale.ROOT);
    List<String> args = new ArrayList<>(List.of(transport, "on"));
    args.addAll(common(index, clamds));
    args.addAll(kind == GatewayRuns.Kind.AMQP ? amqp(index) : jms());
    args.addAll(extra);
    String name = "gateway-" + transport + "-" + index + suffix;
    return ScaleRig.started(
        new ChildJvm(
            GatewayLauncher.class.getName(),
            List.of("-Xmx1g", GatewayRuns.COLLECTOR, "--enable-native-access=ALL-UNNAMED"),
            args,
            rig.log(name)),
        name);
  }

  private List<String> common(int index, int clamds) {
    List<String> args = new ArrayList<>(ScaleHistory.gatewayArgs());
    args.addAll(
        List.of(
            "--avgateway.clamd.endpoints=" + rig.clamdEndpoints(clamds),
            "--avgateway.solr.cloud.zk-hosts=" + rig.zkHost(),
            "--avgateway.solr.cloud.zk-chroot=/solr",
            "--avgateway.pipeline.gateway-name=scale-gateway-" + index,
            "--spring.main.banner-mode=off",
            "--server.port=0",
            "--logging.config="
                + options.repo().resolve("load-tests/src/main/resources/logback-gateway.xml")));
    return args;
  }

  private List<String> amqp(int index) {
    List<String> args = new ArrayList<>(rig.rabbitArgs(index));
    args.addAll(
        List.of(
            "--avgateway.amqp.request-queue=" + ScaleRig.QUEUE,
            "--avgateway.amqp.dead-letter-queue=" + ScaleRig.DEAD_LETTERS,
            "--avgateway.amqp.dead-letter-exchange=av.scale.dlx"));
    return args;
  }

  private List<String> jms() {
    return List.of(
        "--avgateway.jms.mode=external",
        "--avgateway.jms.url=" + rig.artemisUrl(),
        "--avgateway.jms.request-queue=" + ArtemisBrokerMain.REQUESTS,
        "--avgateway.jms.dead-letter-queue=" + ArtemisBrokerMain.DEAD_LETTERS);
  }
}
