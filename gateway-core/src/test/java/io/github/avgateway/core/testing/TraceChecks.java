package io.github.avgateway.core.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.contract.ContractFiles;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.port.HistoryQueries;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/**
 * What the tracing ITs of both gateways check in a real Zipkin server: an example caller's span and
 * the gateway's spans in one trace, correctly parented, and a malformed {@code traceparent}
 * answered as usual in a new trace.
 */
public final class TraceChecks {

  private static final Duration WAIT = Duration.ofSeconds(60);

  private TraceChecks() {}

  /** Runs an example caller on a file with {@code extraArgs}; returns its run. */
  @FunctionalInterface
  public interface TracedCaller {
    ExampleCallers.Run scan(Path file, String correlationId, List<String> extraArgs);
  }

  /**
   * The caller sends a clean file inside its own span (reported to {@code zipkin}); asserts one
   * trace holding the caller's span, the gateway's request span as its child and the gateway's
   * steps as children of that, the reply carrying the reply span's context, and the history
   * document recording the trace id.
   */
  public static void assertCallersTraceContinued(
      TracedCaller caller,
      String callerService,
      String gatewayService,
      ZipkinServer zipkin,
      HistoryQueries history,
      Path dir)
      throws IOException {
    // Content of its own: a cached verdict would have no clamd scan to trace.
    byte[] content = ("traced " + UUID.randomUUID() + "\n").getBytes(StandardCharsets.US_ASCII);
    Path file = Files.write(dir.resolve("traced-clean.txt"), content);
    ExampleCallers.Run run =
        caller.scan(
            file, "traced-" + UUID.randomUUID(), List.of("--zipkin", zipkin.spansEndpoint()));
    assertThat(run.verdict()).as(run.output()).isEqualTo("CLEAN");
    String traceId =
        run.output()
            .lines()
            .filter(l -> l.startsWith("trace "))
            .findFirst()
            .map(l -> l.substring(6).strip())
            .orElseThrow(() -> new AssertionError(run.output()));

    List<JsonNode> spans = awaitSpans(zipkin, traceId, "scan file", "history hand-off");
    JsonNode callerSpan = span(spans, "scan file").orElseThrow();
    JsonNode request = span(spans, "scan request").orElseThrow();
    assertThat(service(callerSpan)).isEqualTo(callerService);
    assertThat(service(request)).isEqualTo(gatewayService);
    assertThat(request.path("parentId").asString()).isEqualTo(callerSpan.path("id").asString());
    assertThat(request.path("kind").asString()).isEqualTo("CONSUMER");
    assertThat(request.path("tags").path("av.verdict").asString()).isEqualTo("CLEAN");
    for (String step : List.of("clamd scan", "reply", "history hand-off")) {
      JsonNode child = span(spans, step).orElseThrow(() -> new AssertionError(step + ": " + spans));
      assertThat(child.path("parentId").asString())
          .as(step)
          .isEqualTo(request.path("id").asString());
    }
    TraceText.write(traceId, zipkin.trace(traceId));
    String replySpan = span(spans, "reply").orElseThrow().path("id").asString();
    assertThat(run.output())
        .as("the reply carries the gateway's reply span")
        .contains("reply traceparent 00-" + traceId + "-" + replySpan + "-01");
    JsonNode scan = span(spans, "clamd scan").orElseThrow();
    assertThat(scan.path("tags").path("av.clamd.endpoint").asString()).isNotBlank();
    assertThat(scan.path("tags").path("av.scan.bytes").asString())
        .isEqualTo(Integer.toString(content.length));
    assertThat(scan.toString()).doesNotContain("traced-clean.txt");
    await("the history document with trace id " + traceId)
        .atMost(WAIT)
        .untilAsserted(() ->
            assertThat(history.byTraceId(traceId, 5))
                .singleElement()
                .extracting(MessageInfo::verdict)
                .hasToString("CLEAN"));
  }

  /**
   * The caller sends a clean file with a malformed {@code traceparent}: it is answered CLEAN, not
   * dead-lettered, in a new trace (the gateway's request span has no parent) that history records.
   */
  public static void assertMalformedTraceparentStartsANewTrace(
      TracedCaller caller, ZipkinServer zipkin, HistoryQueries history, Path dir)
      throws IOException {
    Path file = Files.write(dir.resolve("malformed-clean.txt"), ContractFiles.clean(7));
    String correlationId = "malformed-" + UUID.randomUUID();
    ExampleCallers.Run run =
        caller.scan(file, correlationId, List.of("--traceparent", "00-not-a-trace-parent-01"));
    assertThat(run.verdict()).as(run.output()).isEqualTo("CLEAN");
    MessageInfo document =
        await("the history document of " + correlationId)
            .atMost(WAIT)
            .until(() -> history.byCorrelationId(correlationId, 1), d -> !d.isEmpty())
            .getFirst();
    assertThat(document.traceId()).matches("[0-9a-f]{32}");
    List<JsonNode> spans = awaitSpans(zipkin, document.traceId(), "scan request");
    assertThat(span(spans, "scan request").orElseThrow().has("parentId")).isFalse();
  }

  /**
   * A message the gateway published (a dead-letter or forward called {@code publishSpan}) for a
   * request sent with the caller's trace {@code traceId} and span {@code callerSpanId}: it carries
   * a sampled {@code traceparent} of that trace whose parent is the gateway's producer span {@code
   * publishSpan}, a child of the gateway's request span, itself a child of the caller's span.
   */
  public static void assertPublishedInGatewaysSpan(
      String carried,
      String publishSpan,
      String traceId,
      String callerSpanId,
      String gatewayService,
      ZipkinServer zipkin) {
    assertThat(carried)
        .as("the " + publishSpan + "'s traceparent")
        .matches("00-" + traceId + "-[0-9a-f]{16}-01");
    String parentId = carried.substring(36, 52);
    List<JsonNode> spans = awaitSpans(zipkin, traceId, "scan request", publishSpan);
    JsonNode request = span(spans, "scan request").orElseThrow();
    JsonNode publish =
        spans.stream()
            .filter(s -> parentId.equals(s.path("id").asString()))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no span " + parentId + " in " + spans));
    assertThat(publish.path("name").asString()).isEqualTo(publishSpan);
    assertThat(publish.path("kind").asString()).isEqualTo("PRODUCER");
    assertThat(service(publish)).isEqualTo(gatewayService);
    assertThat(publish.path("parentId").asString()).isEqualTo(request.path("id").asString());
    assertThat(request.path("parentId").asString()).isEqualTo(callerSpanId);
  }

  private static List<JsonNode> awaitSpans(ZipkinServer zipkin, String traceId, String... names) {
    return await("spans " + List.of(names) + " of trace " + traceId + " in Zipkin")
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> zipkin.trace(traceId),
            spans -> List.of(names).stream().allMatch(n -> span(spans, n).isPresent()));
  }

  private static Optional<JsonNode> span(List<JsonNode> spans, String name) {
    return spans.stream().filter(s -> name.equals(s.path("name").asString())).findFirst();
  }

  private static String service(JsonNode span) {
    return span.path("localEndpoint").path("serviceName").asString();
  }
}
