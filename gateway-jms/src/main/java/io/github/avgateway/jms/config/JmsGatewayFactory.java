package io.github.avgateway.jms.config;

import io.github.avgateway.core.config.HistoryStreamProperties;
import io.github.avgateway.core.history.HistoryBacklogGate;
import io.github.avgateway.core.pipe.Pipe;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.port.IntakeGate;
import io.github.avgateway.core.trace.RequestTracer;
import io.github.avgateway.jms.history.HistoryRoom;
import io.github.avgateway.jms.intake.ConsumerSettings;
import io.github.avgateway.jms.intake.JmsGateway;
import io.github.avgateway.jms.intake.QueueLookup;
import io.github.avgateway.jms.pipe.JmsPipes;
import io.github.avgateway.jms.pipe.PipeProcessor;
import io.github.avgateway.jms.reply.RequestProcessor;
import io.github.avgateway.jms.triage.JmsReplyDestinationPolicy;
import io.github.avgateway.jms.triage.JmsRequestTriage;
import jakarta.jms.ConnectionFactory;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Puts the JMS front-end's stages together: one triage for every intake (the reply-destination
 * policy refuses every queue of the gateway's own), a request processor on the request queue and a
 * pipe processor on each clean-pipe's inbox, all consumed by one {@link JmsGateway}.
 */
final class JmsGatewayFactory {

  private JmsGatewayFactory() {}

  /**
   * The gateway as configured by {@code properties}, taking requests while {@code gate} is up.
   *
   * @param factory connects each consumer to the broker
   * @param backlog the history stream's bound, as the batches see it (part of {@code gate})
   * @param room whether the history address has room now, where the broker can be asked
   * @param lookup whether a queue exists, where the broker can be asked without a round trip
   * @param tracer traces each request ({@link RequestTracer#NONE} when tracing is off)
   */
  static JmsGateway create(
      JmsProperties properties,
      HistoryStreamProperties history,
      ConnectionFactory factory,
      ScanPipeline pipeline,
      HistoryBacklogGate backlog,
      HistoryRoom room,
      QueueLookup lookup,
      IntakeGate gate,
      RequestTracer tracer) {
    List<Pipe> pipes = JmsPipes.checked(properties, history);
    // Replies never go to the gateway's own queues: a caller must not feed the history stream, a
    // pipe's inbox or a pipe's outlets.
    Set<String> own = new HashSet<>();
    own.addAll(
        List.of(
            properties.requestQueue(),
            properties.deadLetterQueue(),
            history.queue(),
            history.deadLetterQueue()));
    for (Pipe pipe : pipes) {
      own.addAll(List.of(pipe.inbox(), pipe.clean(), pipe.quarantine(), pipe.rejected()));
    }
    JmsRequestTriage routing =
        new JmsRequestTriage(
            properties.maxDeliveryAttempts(),
            new JmsReplyDestinationPolicy(properties.compiledReplyQueuePattern(), own));
    Clock clock = Clock.systemUTC();
    List<JmsGateway.Intake> intakes = new ArrayList<>();
    intakes.add(
        new JmsGateway.Intake(
            "jms-consumer-",
            properties.requestQueue(),
            new RequestProcessor(pipeline, gate, routing, clock),
            null));
    for (int i = 0; i < pipes.size(); i++) {
      intakes.add(
          new JmsGateway.Intake(
              "jms-pipe" + i + "-consumer-",
              pipes.get(i).inbox(),
              new PipeProcessor(pipes.get(i), pipeline, gate, routing, clock),
              pipes.get(i)));
    }
    return new JmsGateway(
        factory,
        ConsumerSettings.of(properties, history, tracer),
        intakes,
        gate,
        backlog,
        room,
        lookup,
        properties.consumers(),
        properties.url(),
        history.buffer().enabled() ? history.buffer() : null,
        properties.intake());
  }
}
