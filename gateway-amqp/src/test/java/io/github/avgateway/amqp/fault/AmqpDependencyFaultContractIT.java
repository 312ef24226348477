package io.github.avgateway.amqp.fault;

import io.github.avgateway.core.contract.AbstractDependencyFaultContractTests;
import io.github.avgateway.core.contract.FaultDriver;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.testing.HttpProbe;
import io.github.avgateway.core.testing.PrivateClamd;
import io.github.avgateway.core.testing.TcpProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The dependency-fault contract on AMQP 0-9-1: clamd and Solr fail under load behind one gateway
 * JVM on a private RabbitMQ node ({@link AmqpFaultRig}). The gateway's log tells when its intake
 * paused and resumed; the history backlog is the history queue's messages ready, read on the
 * callers' own connection.
 */
class AmqpDependencyFaultContractIT extends AbstractDependencyFaultContractTests {

  private static final String PAUSED = "pausing AMQP intake";
  private static final String RESUMED = "resuming AMQP intake";

  private AmqpFaultRig rig;
  private JavaProcess gateway;
  private FaultDriver driver;

  @BeforeAll
  void start() throws Exception {
    rig = new AmqpFaultRig("dependency");
    gateway = rig.startGateway("gw-dep");
    driver = new Driver();
  }

  @AfterAll
  void stop() throws Exception {
    if (rig != null) {
      rig.close();
    }
  }

  @Override
  protected FaultDriver driver() {
    return driver;
  }

  /** The rig and its one gateway JVM as the contract sees them. */
  private final class Driver implements FaultDriver {

    @Override
    public Run run(String scenario) {
      return new FaultRun(rig, scenario);
    }

    @Override
    public PrivateClamd clamd() {
      return rig.clamd;
    }

    @Override
    public TcpProxy clamdProxy() {
      return rig.clamdProxy;
    }

    @Override
    public void stopSolr() throws Exception {
      rig.solr.stop();
    }

    @Override
    public void restartSolr() throws Exception {
      rig.solr.restart();
    }

    @Override
    public TcpProxy solrProxy() {
      return rig.solrProxy;
    }

    @Override
    public HttpProbe http() throws Exception {
      return rig.http(gateway);
    }

    @Override
    public boolean intakeDown() throws Exception {
      return gateway.occurrences(PAUSED) > gateway.occurrences(RESUMED);
    }

    @Override
    public long intakePauses() throws Exception {
      return gateway.occurrences(PAUSED);
    }

    @Override
    public long logged(String text) throws Exception {
      return gateway.occurrences(text);
    }

    @Override
    public long historyBacklog() {
      return rig.historyReady();
    }

    @Override
    public Duplicates afterClamdFault() {
      return Duplicates.FORBIDDEN;
    }
  }
}
