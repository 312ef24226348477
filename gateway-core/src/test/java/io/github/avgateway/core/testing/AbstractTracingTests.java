package io.github.avgateway.core.testing;

import io.github.avgateway.core.port.HistoryQueries;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tracing tests both gateways pass against a real Zipkin server ({@link TraceChecks}): a
 * subclass runs its gateway with tracing on, every new trace sampled, spans sent to {@link
 * #zipkin()}, and names its example caller.
 */
public abstract class AbstractTracingTests {

  /** Runs the example caller on {@code file} with the extra arguments. */
  protected abstract ExampleCallers.Run scan(Path file, String correlationId, List<String> extra);

  /** The caller's service name in its spans. */
  protected abstract String callerService();

  /** The gateway's service name ({@code spring.application.name}). */
  protected abstract String gatewayService();

  protected abstract ZipkinServer zipkin();

  protected abstract HistoryQueries history();

  @Test
  void theCallersTraceHoldsTheGatewaysSpans(@TempDir Path dir) throws IOException {
    TraceChecks.assertCallersTraceContinued(
        this::scan, callerService(), gatewayService(), zipkin(), history(), dir);
  }

  @Test
  void aMalformedTraceparentIsScannedInANewTrace(@TempDir Path dir) throws IOException {
    TraceChecks.assertMalformedTraceparentStartsANewTrace(this::scan, zipkin(), history(), dir);
  }
}
