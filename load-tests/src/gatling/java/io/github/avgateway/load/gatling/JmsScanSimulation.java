package io.github.avgateway.load.gatling;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.percent;
import static io.gatling.javaapi.core.CoreDsl.randomSwitch;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.jms.JmsDsl.jms;
import static io.gatling.javaapi.jms.JmsDsl.jmsProperty;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.jms.JmsProtocolBuilder;
import io.github.avgateway.load.Payloads;
import java.time.Duration;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * JMS request/reply (Gatling's JMS support) against a running JMS gateway: {@code BytesMessage}
 * requests, persistent, replies on a temporary queue matched by correlation id (Gatling sets a
 * random {@code JMSCorrelationID} on each request and the gateway answers with it). Not by message
 * id: that id exists only once the send returned, so Gatling tracks such a request only after it,
 * and ignores a reply that came first (a reply timeout on a busy machine). Clean files must come
 * back with {@code avVerdict} = {@code CLEAN}, EICAR with {@code INFECTED}. Open model as in {@link
 * LoadSettings}. Broker: {@code -Djms.url} (tcp://127.0.0.1:61616), {@code -Djms.queue}
 * (av.scan.requests).
 *
 * <pre>
 * ./mvnw -B -pl load-tests gatling:test -Dgatling.simulationClass=io.github.avgateway.load.gatling.JmsScanSimulation -Drate=100 -Dduration=60 -Dsize=64k
 * </pre>
 */
public class JmsScanSimulation extends Simulation {

  private final LoadSettings load = LoadSettings.fromSystemProperties();
  private final String queue = System.getProperty("jms.queue", "av.scan.requests");

  private final JmsProtocolBuilder protocol =
      jms.connectionFactory(
              new ActiveMQConnectionFactory(System.getProperty("jms.url", "tcp://127.0.0.1:61616")))
          .usePersistentDeliveryMode()
          .matchByCorrelationId()
          .replyTimeout(Duration.ofSeconds(60));

  private final ScenarioBuilder scan =
      scenario("JMS scan")
          .exec(
              randomSwitch()
                  .on(
                      percent(load.eicarPercent())
                          .then(request("scan EICAR", Payloads.eicar(), "INFECTED")),
                      percent(100 - load.eicarPercent())
                          .then(
                              request(
                                  "scan " + Payloads.label(load.size()), load.clean(), "CLEAN"))));

  {
    setUp(scan.injectOpen(constantUsersPerSec(load.rate()).during(load.duration())))
        .protocols(protocol)
        .assertions(
            global().failedRequests().percent().lte(load.maxFailedPercent()),
            global().responseTime().percentile(99.0).lte(load.p99Millis()));
  }

  private ChainBuilder request(String name, byte[] payload, String verdict) {
    return exec(
        jms(name)
            .requestReply()
            .queue(queue)
            .bytesMessage(payload)
            .property("avFilename", name.replace(' ', '-'))
            .check(jmsProperty("avVerdict").is(verdict)));
  }
}
