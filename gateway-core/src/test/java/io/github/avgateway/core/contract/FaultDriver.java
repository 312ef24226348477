package io.github.avgateway.core.contract;

import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.fault.FaultLedger;
import io.github.avgateway.core.fault.FaultPayloads.Payload;
import io.github.avgateway.core.fault.FaultReport;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.testing.HttpProbe;
import io.github.avgateway.core.testing.PrivateClamd;
import io.github.avgateway.core.testing.TcpProxy;
import java.time.Duration;

/**
 * What the dependency-fault contract ({@link AbstractDependencyFaultContractTests}) needs from one
 * front-end's fault rig: a gateway on its real broker whose clamd and Solr are private to the rig,
 * each behind a {@link TcpProxy}; a fault client that sends the mixed load and records every answer
 * in a {@link FaultLedger}; and a view of the gateway (its HTTP endpoints, its log, its intake).
 * The suite never sees a transport type.
 */
public interface FaultDriver {

  /** One scenario's load, keyed with a prefix no other run shares. */
  interface Run {

    /** The run's ledger: what was sent, what came back, what history holds. */
    FaultLedger ledger();

    /** Sends {@code count} more requests of the mixed load (every tenth EICAR, plain or zipped). */
    void mixed(int count);

    /** Sends one request of {@code payload} (its file name, if any, as the request's). */
    void send(Payload payload);

    /** A new key of this run, for a request the driver builds itself. */
    String key();

    /** Requests sent so far. */
    int sent();

    /** Waits (bounded) until at least {@code count} requests of this run have an answer. */
    Run awaitAnswered(long count);

    /**
     * Waits (bounded: ten times {@code quiet}) until nothing of this run is answered for {@code
     * quiet}: the gateway holds or is stuck.
     */
    default void awaitNoProgress(Duration quiet) {
      long[] last = {-1};
      await("no progress in " + ledger().scenario())
          .atMost(quiet.multipliedBy(10))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> {
            long now = ledger().answered();
            boolean same = now == last[0];
            last[0] = now;
            return same;
          });
      await()
          .atMost(quiet.multipliedBy(10))
          .during(quiet)
          .until(() -> ledger().answered() == last[0]);
    }

    /**
     * Waits (bounded) for every confirmed request's answer and every answer's history document,
     * then returns the run's report, printed; asserts none of its counts (a run on a clean-pipe
     * also asserts the pipe's own guarantees: {@link PipeFaultDriver}).
     */
    FaultReport finish();
  }

  /** Starts a run of {@code scenario}. */
  Run run(String scenario);

  /** The rig's clamd, which the gateway reaches through {@link #clamdProxy()}. */
  PrivateClamd clamd();

  TcpProxy clamdProxy();

  /** Stops the rig's Solr (the process, not the proxy). */
  void stopSolr() throws Exception;

  /** Starts the rig's Solr again on its own data and waits until it answers. */
  void restartSolr() throws Exception;

  /** The proxy between the gateway and Solr. */
  TcpProxy solrProxy();

  /** The gateway's HTTP endpoints (actuator). */
  HttpProbe http() throws Exception;

  /** Whether the gateway's intake is paused now. */
  boolean intakeDown() throws Exception;

  /** How many times the gateway has paused its intake so far. */
  long intakePauses() throws Exception;

  /** How many lines of the gateway's log so far contain {@code text}. */
  long logged(String text) throws Exception;

  /**
   * History messages waiting in the broker for the indexer now, as the broker counts them on a
   * connection of the driver's own.
   */
  long historyBacklog() throws Exception;

  /**
   * The repeated answers a clamd stopped, frozen or cut may cause on this transport. AMQP's pause
   * holds the requests in flight and answers each once ({@link Duplicates#FORBIDDEN}); a JMS batch
   * whose transaction rolled back is delivered again by the broker, and a request of it may be
   * answered again, marked redelivered ({@link Duplicates#EXPLAINED_BY_REDELIVERY}).
   */
  Duplicates afterClamdFault();
}
