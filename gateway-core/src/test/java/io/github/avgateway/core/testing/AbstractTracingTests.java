package io.github.avgateway.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.trace.Intake;
import io.github.avgateway.core.trace.RequestTrace;
import io.github.avgateway.core.trace.RequestTracer;
import io.github.avgateway.core.trace.TraceStep;
import io.github.avgateway.core.trace.brave.SpanBatching;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The tracing tests both gateways pass against a real Zipkin server ({@link TraceChecks}): a
 * subclass runs its gateway with tracing on, every new trace sampled, spans sent to {@link
 * #zipkin()} and a clean-pipe, names its example caller, and sends what its dead-letter and forward
 * tests need with its broker's own client.
 */
public abstract class AbstractTracingTests {

  private final String callerService;
  private final String gatewayService;
  @Autowired private HistoryQueries history;
  @Autowired private RequestTracer tracer;
  @Autowired private SpanBatching spanBatching;

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

  /**
   * Sends a request the gateway dead-letters as {@code MALFORMED_REQUEST}, carrying {@code
   * traceparent} and {@code correlationId}; returns the {@code traceparent} its dead-letter carries
   * (null when it has none).
   */
  protected abstract String deadLetterTraceparent(String traceparent, String correlationId)
      throws Exception;

  /**
   * Puts a clean file carrying {@code traceparent} on the clean-pipe's inbox, identified by {@code
   * id}; returns the {@code traceparent} of the file forwarded to the clean queue (null when none).
   */
  protected abstract String forwardTraceparent(String traceparent, String id) throws Exception;

  @Test
  void theCallersTraceHoldsTheGatewaysSpans(@TempDir Path dir) throws IOException {
    TraceChecks.assertCallersTraceContinued(
        this::scan, callerService, gatewayService, zipkin(), history, dir);
  }

  /**
   * The spans every other test finds in the tracing server went through one batcher in front of
   * Spring Boot's Zipkin handler (avgateway.tracing.span-batch-interval), which dropped none.
   */
  @Test
  void finishedSpansReachTheTracingServerInBatches() {
    assertThat(spanBatching.batchers()).as("batchers in front of the Zipkin handler").hasSize(1);
    assertThat(spanBatching.batchers().getFirst().dropped()).as("spans dropped").isZero();
  }

  @Test
  void theDeadLetterCarriesTheGatewaysDeadLetterSpan() throws Exception {
    Caller caller = Caller.random();
    String carried =
        deadLetterTraceparent(caller.traceparent(), "traced-dead-" + UUID.randomUUID());
    TraceChecks.assertPublishedInGatewaysSpan(
        carried, "dead-letter", caller.traceId(), caller.spanId(), gatewayService, zipkin());
  }

  @Test
  void theCleanPipeForwardCarriesTheGatewaysForwardSpan() throws Exception {
    Caller caller = Caller.random();
    String carried =
        forwardTraceparent(caller.traceparent(), "traced-forward-" + UUID.randomUUID());
    TraceChecks.assertPublishedInGatewaysSpan(
        carried, "forward", caller.traceId(), caller.spanId(), gatewayService, zipkin());
  }

  /**
   * With Spring Boot's propagation (W3C written, B3 also read), a caller's trace that is not
   * sampled is passed on without spans: no publish step, a {@code traceparent} of the caller's
   * trace with the flags 00 and nothing else of the caller's but its {@code tracestate}.
   */
  @Test
  void aCallersUnsampledTraceIsPassedOnWithoutSpans() {
    Caller caller = Caller.random();
    Map<String, String> request =
        Map.of(
            "traceparent", "00-" + caller.traceId() + "-" + caller.spanId() + "-00",
            "tracestate", "caller=1",
            "b3", "1");
    Instant now = Instant.now();
    RequestTrace trace =
        tracer.start(new Intake("test", "av.scan.requests", null, now), request, Map::get);
    Map<String, String> reply = new HashMap<>();

    assertThat(trace.publish("reply", "q", reply, Map::put)).isSameAs(TraceStep.NONE);
    assertThat(trace.recorded()).isFalse();
    assertThat(trace.traceId()).isEqualTo(caller.traceId());
    assertThat(reply).containsOnlyKeys("traceparent", "tracestate");
    assertThat(reply.get("traceparent")).matches("00-" + caller.traceId() + "-[0-9a-f]{16}-00");
  }

  @Test
  void aMalformedTraceparentIsScannedInANewTrace(@TempDir Path dir) throws IOException {
    TraceChecks.assertMalformedTraceparentStartsANewTrace(this::scan, zipkin(), history, dir);
  }

  /** A caller's sampled context, new for each test. */
  private record Caller(String traceId, String spanId) {

    static Caller random() {
      HexFormat hex = HexFormat.of();
      ThreadLocalRandom random = ThreadLocalRandom.current();
      return new Caller(
          hex.toHexDigits(random.nextLong() | 1) + hex.toHexDigits(random.nextLong()),
          hex.toHexDigits(random.nextLong() | 1));
    }

    String traceparent() {
      return "00-" + traceId + "-" + spanId + "-01";
    }
  }
}
