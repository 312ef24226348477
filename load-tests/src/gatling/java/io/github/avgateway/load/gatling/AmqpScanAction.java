package io.github.avgateway.load.gatling;

import com.typesafe.scalalogging.Logger;
import io.gatling.commons.stats.KO$;
import io.gatling.commons.stats.OK$;
import io.gatling.commons.stats.Status;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.gatling.core.stats.StatsEngine;
import io.gatling.core.structure.ScenarioContext;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.load.harness.Transport;
import org.slf4j.LoggerFactory;
import scala.Option;

/**
 * A Gatling action for one AMQP scan request/reply: sends the payload through a {@link Transport},
 * and when the reply comes, logs it to Gatling's statistics as OK only when its {@code avVerdict}
 * is the expected one, then hands the virtual user on to the next action on its own event loop. No
 * AMQP plugin on Maven Central works with Gatling 3.15 here, so this small action stands in.
 */
final class AmqpScanAction implements Action {

  private static final Logger LOGGER = Logger.apply(LoggerFactory.getLogger(AmqpScanAction.class));

  private final String name;
  private final Transport transport;
  private final byte[] payload;
  private final Verdict expected;
  private final StatsEngine stats;
  private final Action next;

  AmqpScanAction(
      String name,
      Transport transport,
      byte[] payload,
      Verdict expected,
      ScenarioContext context,
      Action next) {
    this.name = name;
    this.transport = transport;
    this.payload = payload;
    this.expected = expected;
    this.stats = context.coreComponents().statsEngine();
    this.next = next;
  }

  /** The builder the Java DSL takes in {@code exec(...)}. */
  static io.gatling.javaapi.core.ActionBuilder scan(
      String name, Transport transport, byte[] payload, Verdict expected) {
    io.gatling.core.action.builder.ActionBuilder scala =
        (context, next) -> new AmqpScanAction(name, transport, payload, expected, context, next);
    return () -> scala;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void execute(Session session) {
    long start = System.currentTimeMillis();
    transport
        .send(payload)
        .whenComplete((verdict, error) -> {
          long end = System.currentTimeMillis();
          String problem =
              error != null
                  ? "no reply: " + error
                  : verdict != expected ? "avVerdict " + verdict + ", expected " + expected : null;
          Status status = problem == null ? OK$.MODULE$ : KO$.MODULE$;
          stats.logResponse(
              session.scenario(),
              session.groups(),
              name,
              start,
              end,
              status,
              Option.apply(verdict == null ? null : verdict.name()),
              Option.apply(problem));
          Session after = problem == null ? session : session.markAsFailed();
          session.eventLoop().execute(() -> next.execute(after));
        });
  }

  @Override
  public Logger logger() {
    return LOGGER;
  }

  @Override
  public void com$typesafe$scalalogging$StrictLogging$_setter_$logger_$eq(Logger logger) {
    // the logger is the static one
  }
}
