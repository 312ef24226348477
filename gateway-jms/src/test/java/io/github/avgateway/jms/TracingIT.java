package io.github.avgateway.jms;

import io.github.avgateway.core.testing.AbstractTracingTests;
import io.github.avgateway.core.testing.ExampleCallers;
import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.core.testing.ZipkinServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Tracing against a real Zipkin server: the JMS gateway (embedded Artemis, real clamd, embedded
 * Solr) with tracing on and every trace sampled, and the Node.js example caller (rhea, AMQP 1.0)
 * sending a file inside its own span. Zipkin holds one trace with the caller's span and the
 * gateway's, correctly parented; a malformed traceparent is scanned as usual in a new trace.
 */
@SpringBootTest(classes = GatewayJmsApplication.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class TracingIT extends AbstractTracingTests {

  private static ZipkinServer zipkin;
  private static int port;

  @DynamicPropertySource
  static void gateway(DynamicPropertyRegistry registry) throws IOException {
    zipkin = ZipkinServer.start();
    port = TestEnv.freePort();
    Path data = Files.createTempDirectory("avgw-jms-tracing");
    registry.add("avgateway.jms.url", () -> "tcp://127.0.0.1:" + port);
    registry.add("avgateway.jms.embedded.data-dir", () -> data.resolve("artemis").toString());
    registry.add("avgateway.solr.embedded.home", () -> data.resolve("solr").toString());
    registry.add("avgateway.clamd.endpoints", () -> TestEnv.clamdEndpoint());
    registry.add("management.tracing.export.enabled", () -> "true");
    registry.add("management.tracing.sampling.probability", () -> "1.0");
    registry.add("management.tracing.export.zipkin.endpoint", zipkin::spansEndpoint);
  }

  TracingIT() {
    super("node-caller", "av-gateway-jms");
  }

  @Override
  protected ZipkinServer zipkin() {
    return zipkin;
  }

  @AfterAll
  static void stopZipkin() {
    if (zipkin != null) {
      zipkin.close();
    }
  }

  @Override
  protected ExampleCallers.Run scan(Path file, String correlationId, List<String> extra) {
    List<String> args = new ArrayList<>();
    args.addAll(
        List.of(
            file.toString(), "--port", String.valueOf(port), "--correlation-id", correlationId));
    args.addAll(extra);
    return ExampleCallers.node("amqp10-scan.js", args);
  }
}
