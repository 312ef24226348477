package io.github.avgateway.jms.fault;

import io.github.avgateway.core.contract.AbstractDependencyFaultContractTests;
import io.github.avgateway.core.contract.FaultDriver;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.testing.HttpProbe;
import io.github.avgateway.core.testing.PrivateClamd;
import io.github.avgateway.core.testing.TcpProxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The dependency-fault contract on JMS: clamd and Solr fail under load behind the gateway in the
 * test JVM on external Artemis ({@link FaultEnvironment}, shared with the other JMS fault classes).
 * The gateway's log (captured into a file) tells when its intake paused; the history backlog is the
 * history queue's message count (those the indexer holds unacknowledged included), read through
 * Artemis's management queue.
 */
@ExtendWith(AbstractJmsFaultIT.Environment.class)
class JmsDependencyFaultContractIT extends AbstractDependencyFaultContractTests {

  private static final String PAUSED = "JMS intake paused";

  private FaultEnvironment env;
  private BrokerQueues queues;
  private FaultDriver driver;

  @BeforeAll
  void start(FaultEnvironment environment) throws Exception {
    env = environment;
    queues = new BrokerQueues(env.rig.artemisUrl());
    driver = new Driver();
  }

  @AfterAll
  void stop() throws Exception {
    if (queues != null) {
      queues.close();
    }
  }

  @Override
  protected FaultDriver driver() {
    return driver;
  }

  /** The shared environment and its in-process gateway as the contract sees them. */
  private final class Driver implements FaultDriver {

    private final Path log = env.rig.dir.resolve("logs/in-test-jvm.log");

    @Override
    public Run run(String scenario) {
      return new FaultRun(env, scenario);
    }

    @Override
    public PrivateClamd clamd() {
      return env.rig.clamd;
    }

    @Override
    public TcpProxy clamdProxy() {
      return env.rig.clamdProxy;
    }

    @Override
    public void stopSolr() throws Exception {
      env.rig.solr.stop();
    }

    @Override
    public void restartSolr() throws Exception {
      env.rig.solr.restart();
    }

    @Override
    public TcpProxy solrProxy() {
      return env.rig.solrProxy;
    }

    @Override
    public HttpProbe http() {
      String port = env.gateway.getEnvironment().getProperty("local.server.port");
      if (port == null) {
        throw new IllegalStateException("the in-process gateway announced no HTTP port");
      }
      return new HttpProbe(Integer.parseInt(port));
    }

    @Override
    public boolean intakeDown() {
      return env.intakeDown();
    }

    @Override
    public long intakePauses() throws Exception {
      return logged(PAUSED);
    }

    @Override
    public long logged(String text) throws Exception {
      if (!Files.exists(log)) {
        return 0;
      }
      try (var lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
        return lines.filter(line -> line.contains(text)).count();
      }
    }

    @Override
    public long historyBacklog() {
      return queues.messageCount(ArtemisBrokerMain.HISTORY);
    }

    @Override
    public Duplicates afterClamdFault() {
      return Duplicates.EXPLAINED_BY_REDELIVERY;
    }
  }
}
