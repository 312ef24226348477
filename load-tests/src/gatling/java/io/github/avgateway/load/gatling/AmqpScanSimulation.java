package io.github.avgateway.load.gatling;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.percent;
import static io.gatling.javaapi.core.CoreDsl.randomSwitch;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.load.Payloads;
import io.github.avgateway.load.harness.AmqpTransport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeoutException;

/**
 * AMQP request/reply against a running AMQP gateway: clean files must come back {@code CLEAN},
 * EICAR {@code INFECTED} (the reply's {@code avVerdict} header). Open model: {@code rate} new
 * requests a second for {@code duration} seconds (see {@link LoadSettings}). Broker: {@code
 * -Damqp.host} (127.0.0.1), {@code -Damqp.port} (5672), {@code -Damqp.queue} (av.scan.requests).
 *
 * <pre>
 * ./mvnw -B -pl load-tests gatling:test -Dgatling.simulationClass=io.github.avgateway.load.gatling.AmqpScanSimulation -Drate=100 -Dduration=60 -Dsize=64k
 * </pre>
 */
public class AmqpScanSimulation extends Simulation {

  private final LoadSettings load = LoadSettings.fromSystemProperties();
  private final AmqpTransport client = connect();

  private final ScenarioBuilder scan =
      scenario("AMQP scan")
          .exec(
              randomSwitch()
                  .on(
                      percent(load.eicarPercent())
                          .then(
                              exec(
                                  AmqpScanAction.scan(
                                      "scan EICAR", client, Payloads.eicar(), Verdict.INFECTED))),
                      percent(100 - load.eicarPercent())
                          .then(
                              exec(
                                  AmqpScanAction.scan(
                                      "scan " + Payloads.label(load.size()),
                                      client,
                                      load.clean(),
                                      Verdict.CLEAN)))));

  {
    setUp(scan.injectOpen(constantUsersPerSec(load.rate()).during(load.duration())))
        .assertions(
            global().failedRequests().percent().lte(load.maxFailedPercent()),
            global().responseTime().percentile(99.0).lte(load.p99Millis()));
  }

  private static AmqpTransport connect() {
    try {
      return new AmqpTransport(
          System.getProperty("amqp.host", "127.0.0.1"),
          Integer.getInteger("amqp.port", 5672),
          System.getProperty("amqp.queue", "av.scan.requests"),
          4,
          true);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("RabbitMQ did not answer", e);
    }
  }

  @Override
  public void after() {
    client.close();
  }
}
