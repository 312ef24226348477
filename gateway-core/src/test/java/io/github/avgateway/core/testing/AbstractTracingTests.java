package io.github.avgateway.core.testing;

import io.github.avgateway.core.port.HistoryQueries;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The tracing tests both gateways pass against a real Zipkin server ({@link TraceChecks}): a
 * subclass runs its gateway with tracing on, every new trace sampled, spans sent to {@link
 * #zipkin()}, and names its example caller.
 */
public abstract class AbstractTracingTests {

  private final String callerService;
  private final String gatewayService;
  @Autowired private HistoryQueries history;

  /**
   * @param callerService the example caller's service name in its spans
   * @param gatewayService the gateway's ({@code spring.application.name})
   */
  protected AbstractTracingTests(String callerService, String gatewayService) {
    this.callerService = callerService;
    this.gatewayService = gatewayService;
  }

  /** Runs the example caller on {@code file} with the extra arguments. */
  protected abstract ExampleCallers.Run scan(Path file, String correlationId, List<String> extra);

  /** The Zipkin server the gateway sends its spans to. */
  protected abstract ZipkinServer zipkin();

  @Test
  void theCallersTraceHoldsTheGatewaysSpans(@TempDir Path dir) throws IOException {
    TraceChecks.assertCallersTraceContinued(
        this::scan, callerService, gatewayService, zipkin(), history, dir);
  }

  @Test
  void aMalformedTraceparentIsScannedInANewTrace(@TempDir Path dir) throws IOException {
    TraceChecks.assertMalformedTraceparentStartsANewTrace(this::scan, zipkin(), history, dir);
  }
}
