package io.github.avgateway.jms.fault;

import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.pipeline.IntakeGates;
import io.github.avgateway.core.port.Availability;
import io.github.avgateway.solr.StandaloneSolr;
import java.time.Duration;
import java.util.List;
import org.apache.solr.client.solrj.SolrClient;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.Lifecycle;

/**
 * One {@link FaultRig}, one gateway in the test JVM (external mode, every connection through the
 * rig's proxies), one {@link FaultClient} straight to Artemis and one {@link HistoryReader}, shared
 * by every JMS fault class of a test run and closed when the run ends (JUnit's root store closes
 * what it holds).
 */
final class FaultEnvironment implements AutoCloseable {

  final FaultRig rig;
  final ConfigurableApplicationContext gateway;
  final FaultClient client;
  final HistoryReader history;
  final LogCapture logs;
  private final SolrClient solr;

  private FaultEnvironment(FaultRig rig) throws Exception {
    this.rig = rig;
    String viaProxy = "tcp://127.0.0.1:" + rig.artemisProxy.port();
    this.gateway =
        FaultGatewayMain.run(rig.gatewayArgs("in-test-jvm", viaProxy, 4).toArray(String[]::new));
    // After the start: Spring Boot resets the logging system while it starts.
    this.logs = new LogCapture(rig.dir.resolve("logs/in-test-jvm.log"));
    this.client = new FaultClient(rig.artemisUrl(), ArtemisBrokerMain.REPLIES);
    this.solr = rig.solr.client(Duration.ofSeconds(10));
    this.history = new HistoryReader(solr, StandaloneSolr.CORE);
  }

  /** The environment of this test run, started on first use. */
  static FaultEnvironment get(ExtensionContext context) {
    return context
        .getRoot()
        .getStore(ExtensionContext.Namespace.create(FaultEnvironment.class))
        .computeIfAbsent("env", key -> start(), FaultEnvironment.class);
  }

  private static FaultEnvironment start() {
    FaultRig rig;
    try {
      rig = FaultRig.start();
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the JMS fault environment", e);
    }
    try {
      return new FaultEnvironment(rig);
    } catch (Exception e) {
      // The rig's processes (Solr, a private clamd, Artemis) must not outlive a failed start:
      // every test class would otherwise start and leak another set.
      try {
        rig.close();
      } catch (Exception closing) {
        e.addSuppressed(closing);
      }
      throw new IllegalStateException("cannot start the JMS fault environment", e);
    }
  }

  /**
   * Waits (bounded) until the in-process gateway's intake is open: clamd's self-test passed, the
   * history stream has room. Every scenario starts so.
   */
  void awaitIntakeOpen() {
    await("the gateway's intake open (clamd self-test passed, the history stream has room)")
        .atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> !intakeDown());
  }

  /** Whether the in-process gateway's intake is paused now. */
  boolean intakeDown() {
    return gateway.getBean("avgatewayJmsIntake", IntakeGates.class).intake()
        instanceof Availability.Down;
  }

  /**
   * Stops {@code parts} of the in-process gateway (its request consumers, its history indexer), so
   * that a gateway or indexer of the scenario's own has the queues to itself; closing the result
   * starts them again, in reverse order.
   */
  AutoCloseable stopped(Lifecycle... parts) {
    for (Lifecycle part : parts) {
      part.stop();
    }
    return () -> {
      for (int i = parts.length - 1; i >= 0; i--) {
        parts[i].start();
      }
    };
  }

  /** The bean of {@code type} in the in-process gateway. */
  <T> T bean(Class<T> type) {
    return gateway.getBean(type);
  }

  @Override
  public void close() throws Exception {
    for (AutoCloseable part : List.<AutoCloseable>of(client, gateway, solr, logs, rig)) {
      try {
        part.close();
      } catch (Exception e) {
        System.out.println("closing the fault environment: " + e);
      }
    }
  }
}
