package io.github.avgateway.jms.intake;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.config.TracingAutoConfiguration;
import io.github.avgateway.core.trace.Intake;
import io.github.avgateway.core.trace.RequestTrace;
import io.github.avgateway.core.trace.RequestTracer;
import io.micrometer.tracing.propagation.Propagator;
import jakarta.jms.Message;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.activemq.artemis.core.client.impl.ClientMessageImpl;
import org.apache.activemq.artemis.jms.client.ActiveMQMessage;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * What starting a request's trace reads from an Artemis message, with Spring Boot's default
 * propagation (W3C written; W3C, B3 single and B3 multi read): each property once, whatever the
 * propagator asks for more than once.
 */
class JmsTraceReadsTest {

  private static final String CALLER = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  BraveAutoConfiguration.class,
                  MicrometerTracingAutoConfiguration.class,
                  TracingAutoConfiguration.class))
          .withPropertyValues("management.tracing.export.enabled=true");

  private final List<String> reads = new ArrayList<>();
  private final Propagator.Getter<Message> counting =
      (message, name) -> {
        reads.add(name);
        return JmsTraceHeaders.GETTER.get(message, name);
      };

  @Test
  void anUnsampledRequestWithoutContextReadsEachTraceFieldOnceAndItsReplyCarriesNone() {
    runner
        .withPropertyValues("management.tracing.sampling.probability=0.0")
        .run(context -> {
          RequestTrace trace = start(context.getBean(RequestTracer.class), request(null));
          Message reply = JmsTraceHeadersTest.writable();
          trace.publish("reply", "av.reply.x", reply, JmsTraceHeaders.SETTER);

          assertThat(trace.recorded()).isFalse();
          assertThat(reads).doesNotHaveDuplicates().contains("traceparent", "b3", "X-B3-TraceId");
          assertThat(trace).isSameAs(RequestTrace.NONE);
          assertThat(reply.propertyExists("traceparent")).isFalse();
        });
  }

  @Test
  void aCallersSampledTraceIsContinuedReadingEachTraceFieldOnce() {
    runner
        .withPropertyValues("management.tracing.sampling.probability=0.0")
        .run(context -> {
          RequestTrace trace = start(context.getBean(RequestTracer.class), request(CALLER));

          assertThat(trace.recorded()).isTrue();
          assertThat(trace.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
          assertThat(reads).doesNotHaveDuplicates().contains("traceparent", "tracestate");
        });
  }

  private RequestTrace start(RequestTracer tracer, Message request) {
    assertThat(tracer).isNotSameAs(RequestTracer.NONE);
    Intake intake = new Intake("jms", "av.scan.requests", null, Instant.now());
    return tracer.start(intake, request, counting);
  }

  /** A request as the consumer receives it, with {@code traceparent} unless null. */
  private static Message request(String traceparent) {
    ClientMessageImpl core =
        new ClientMessageImpl(
            ActiveMQMessage.TYPE, true, 0, System.currentTimeMillis(), (byte) 4, 1024, null);
    core.putStringProperty("avFileName", "report.pdf");
    if (traceparent != null) {
      core.putStringProperty("traceparent", traceparent);
      core.putStringProperty("tracestate", "caller=abc");
    }
    return new ActiveMQMessage(core, null);
  }
}
