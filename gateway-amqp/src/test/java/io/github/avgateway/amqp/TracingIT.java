package io.github.avgateway.amqp;

import io.github.avgateway.amqp.testing.RabbitIt;
import io.github.avgateway.core.testing.AbstractTracingTests;
import io.github.avgateway.core.testing.ExampleCallers;
import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.core.testing.ZipkinServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Tracing against a real Zipkin server: the AMQP gateway (real RabbitMQ, clamd and embedded Solr)
 * with tracing on and every trace sampled, and the Python example caller (pika) sending a file
 * inside its own span. Zipkin holds one trace with the caller's span and the gateway's, correctly
 * parented; a malformed traceparent is scanned as usual in a new trace.
 */
@SpringBootTest(classes = GatewayAmqpApplication.class)
@DirtiesContext
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class TracingIT extends AbstractTracingTests {

  private static final String SUFFIX = RabbitIt.uniqueSuffix();
  private static final String REQUESTS = "tracing.requests." + SUFFIX;
  private static final String DLX = "tracing.dlx." + SUFFIX;
  private static final String DLQ = "tracing.dead." + SUFFIX;
  private static final String HISTORY = "tracing.history." + SUFFIX;
  private static final String HISTORY_DLQ = "tracing.history.dead." + SUFFIX;
  private static ZipkinServer zipkin;

  @DynamicPropertySource
  static void gateway(DynamicPropertyRegistry registry) throws IOException {
    zipkin = ZipkinServer.start();
    registry.add("spring.rabbitmq.port", RabbitIt::port);
    registry.add("avgateway.clamd.endpoints", () -> TestEnv.clamdEndpoint());
    registry.add("avgateway.solr.embedded.home", () -> "target/tracing-solr-" + SUFFIX);
    registry.add("avgateway.amqp.request-queue", () -> REQUESTS);
    registry.add("avgateway.amqp.dead-letter-exchange", () -> DLX);
    registry.add("avgateway.amqp.dead-letter-queue", () -> DLQ);
    registry.add("avgateway.history.queue", () -> HISTORY);
    registry.add("avgateway.history.dead-letter-queue", () -> HISTORY_DLQ);
    registry.add("management.tracing.export.enabled", () -> "true");
    registry.add("management.tracing.sampling.probability", () -> "1.0");
    registry.add("management.tracing.export.zipkin.endpoint", zipkin::spansEndpoint);
  }

  TracingIT() {
    super("python-caller", "av-gateway-amqp");
  }

  @Override
  protected ZipkinServer zipkin() {
    return zipkin;
  }

  @AfterAll
  static void stopZipkin(@Autowired AmqpAdmin admin) {
    if (zipkin != null) {
      zipkin.close();
    }
    List.of(REQUESTS, DLQ, HISTORY, HISTORY_DLQ).forEach(admin::deleteQueue);
    admin.deleteExchange(DLX);
  }

  @Override
  protected ExampleCallers.Run scan(Path file, String correlationId, List<String> extra) {
    List<String> args = new ArrayList<>();
    args.addAll(
        List.of(
            file.toString(),
            "--url",
            "amqp://guest:guest@127.0.0.1:" + RabbitIt.port() + "/%2F",
            "--queue",
            REQUESTS,
            "--correlation-id",
            correlationId));
    args.addAll(extra);
    return ExampleCallers.python("amqp_scan.py", args);
  }
}
