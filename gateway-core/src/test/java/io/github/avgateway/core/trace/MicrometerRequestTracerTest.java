package io.github.avgateway.core.trace;

import static org.assertj.core.api.Assertions.assertThat;

import brave.handler.MutableSpan;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.EngineVersion;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.testing.RecordingTracing;
import io.micrometer.tracing.propagation.Propagator;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MicrometerRequestTracerTest {

  static final String CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  static final String CALLER_SPAN = "00f067aa0ba902b7";
  private static final String TRACEPARENT = "00-" + CALLER_TRACE + "-" + CALLER_SPAN + "-01";
  private static final Propagator.Getter<Map<String, String>> GET = Map::get;
  private static final Propagator.Setter<Map<String, String>> SET = Map::put;
  private static final Instant RECEIVED = Instant.parse("2026-05-01T10:00:00.500Z");

  private final RecordingTracing tracing = RecordingTracing.sampled();

  @AfterEach
  void close() {
    tracing.close();
  }

  @Test
  void aValidTraceparentIsContinuedAndTheReplyCarriesTheGatewaysSpan() {
    Map<String, String> request =
        Map.of("traceparent", TRACEPARENT, "tracestate", "caller=abc,other=1");
    RequestTrace trace = tracing.tracer().start(intake(null), request, GET);
    Map<String, String> reply = new HashMap<>();
    trace.publish("reply", "av.reply.x", reply, SET).end();
    trace.finish(document(Verdict.CLEAN));

    MutableSpan span = tracing.require("scan request");
    assertThat(trace.recorded()).isTrue();
    assertThat(trace.traceId()).isEqualTo(CALLER_TRACE);
    assertThat(span.traceId()).isEqualTo(CALLER_TRACE);
    assertThat(span.parentId()).isEqualTo(CALLER_SPAN);
    assertThat(span.kind()).isEqualTo(brave.Span.Kind.CONSUMER);
    assertThat(span.tags())
        .containsEntry("av.verdict", "CLEAN")
        .containsEntry("av.disposition", "REPLIED")
        .containsEntry("av.size.bytes", "68")
        .containsEntry("messaging.destination.name", "av.scan.requests");
    MutableSpan publish = tracing.require("reply");
    assertThat(publish.parentId()).isEqualTo(span.id());
    assertThat(publish.kind()).isEqualTo(brave.Span.Kind.PRODUCER);
    assertThat(reply.get("traceparent"))
        .isEqualTo("00-" + CALLER_TRACE + "-" + publish.id() + "-01");
    assertThat(reply.get("tracestate")).isEqualTo("caller=abc,other=1");
  }

  @Test
  void aMalformedTraceparentStartsANewTrace() {
    for (String malformed :
        List.of(
            "garbage",
            "00-" + CALLER_TRACE + "-" + CALLER_SPAN,
            "00-00000000000000000000000000000000-" + CALLER_SPAN + "-01",
            "00-" + CALLER_TRACE + "-0000000000000000-01",
            "ff-" + CALLER_TRACE + "-" + CALLER_SPAN + "-01",
            "00-" + CALLER_TRACE + "-" + CALLER_SPAN + "-01-extra",
            "00-" + CALLER_TRACE.toUpperCase(java.util.Locale.ROOT) + "-" + CALLER_SPAN + "-01")) {
      RequestTrace trace =
          tracing.tracer().start(intake(null), Map.of("traceparent", malformed), GET);
      Map<String, String> reply = new HashMap<>();
      trace.publish("reply", "av.reply.x", reply, SET).end();
      trace.finish(document(Verdict.CLEAN));

      assertThat(trace.traceId()).as(malformed).isNotNull().isNotEqualTo(CALLER_TRACE);
      assertThat(reply.get("traceparent")).as(malformed).contains(trace.traceId());
    }
    assertThat(tracing.spans())
        .filteredOn(s -> s.name().equals("scan request"))
        .hasSize(7)
        .allSatisfy(s -> assertThat(s.parentId()).isNull());
  }

  @Test
  void theQueueWaitRunsFromTheBrokerStampToReceipt() {
    Instant stamp = RECEIVED.minusMillis(250);
    RequestTrace trace = tracing.tracer().start(intake(stamp), Map.of(), GET);
    trace.finish(document(Verdict.CLEAN));
    Instant daysBefore = RECEIVED.minus(Duration.ofDays(7)).plusSeconds(1);
    tracing.tracer().start(intake(daysBefore), Map.of(), GET).fail("rolled back");
    assertThat(tracing.spans())
        .filteredOn(s -> "queue wait".equals(s.name()))
        .extracting(MutableSpan::startTimestamp)
        .as("a stamp up to a week old is kept")
        .containsExactly(Spans.micros(stamp), Spans.micros(daysBefore));

    MutableSpan request = tracing.require("scan request");
    MutableSpan wait = tracing.require("queue wait");
    assertThat(request.startTimestamp()).isEqualTo(Spans.micros(stamp));
    assertThat(wait.startTimestamp()).isEqualTo(Spans.micros(stamp));
    assertThat(wait.finishTimestamp()).isEqualTo(Spans.micros(RECEIVED));
    assertThat(wait.parentId()).isEqualTo(request.id());
  }

  @Test
  void aStampAfterReceiptOrNoneStartsTheRequestAtReceiptWithoutQueueWait() {
    tracing.tracer().start(intake(RECEIVED.plusSeconds(5)), Map.of(), GET).fail("rolled back");
    tracing.tracer().start(intake(null), Map.of(), GET).fail("rolled back");
    tracing
        .tracer()
        .start(intake(RECEIVED.minus(Duration.ofDays(7))), Map.of(), GET)
        .fail("rolled back");

    assertThat(tracing.span("queue wait")).isEmpty();
    assertThat(tracing.spans())
        .as("after receipt, none, a week before it")
        .hasSize(3)
        .allSatisfy(s -> {
          assertThat(s.startTimestamp()).isEqualTo(Spans.micros(RECEIVED));
          assertThat(s.tags()).containsEntry("error", "rolled back");
        });
  }

  @Test
  void theScanIsAChildWithVerdictSizeAndEndpointButNoFileName() {
    RequestTrace trace = tracing.tracer().start(intake(null), Map.of(), GET);
    try (RequestTrace.Scope scope = trace.makeCurrent()) {
      RequestTrace.current().scannedBy("127.0.0.1:3310");
      RequestTrace.current()
          .scanned(
              ScanReport.infected(List.of("Eicar-Test-Signature"), EngineVersion.UNKNOWN, 3),
              68,
              Duration.ofMillis(3));
    }
    assertThat(RequestTrace.current()).isSameAs(RequestTrace.NONE);
    trace.finish(document(Verdict.INFECTED));

    MutableSpan scan = tracing.require("clamd scan");
    assertThat(scan.parentId()).isEqualTo(tracing.require("scan request").id());
    assertThat(scan.finishTimestamp() - scan.startTimestamp()).isEqualTo(3_000);
    assertThat(scan.tags())
        .containsEntry("av.verdict", "INFECTED")
        .containsEntry("av.scan.bytes", "68")
        .containsEntry("av.clamd.endpoint", "127.0.0.1:3310")
        .containsEntry("av.signature", "Eicar-Test-Signature")
        .doesNotContainKey("av.filename");
  }

  @Test
  void anUnsampledNewTraceRecordsNoTraceIdButACallersSampledOneIsKept() {
    try (RecordingTracing unsampled = RecordingTracing.unsampled()) {
      RequestTrace fresh = unsampled.tracer().start(intake(null), Map.of(), GET);
      RequestTrace continued =
          unsampled.tracer().start(intake(null), Map.of("traceparent", TRACEPARENT), GET);
      fresh.finish(document(Verdict.CLEAN));
      continued.finish(document(Verdict.CLEAN));

      assertThat(fresh.traceId()).isNull();
      assertThat(continued.traceId()).isEqualTo(CALLER_TRACE);
      assertThat(unsampled.spans())
          .singleElement()
          .satisfies(s -> assertThat(s.traceId()).isEqualTo(CALLER_TRACE));
    }
  }

  @Test
  void noTraceWritesNothing() {
    RequestTrace trace =
        RequestTracer.NONE.start(intake(null), Map.of("traceparent", TRACEPARENT), GET);
    Map<String, String> reply = new HashMap<>();
    trace.publish("reply", "q", reply, SET).end();
    try (RequestTrace.Scope scope = trace.makeCurrent()) {
      assertThat(RequestTrace.current()).isSameAs(RequestTrace.NONE);
    }
    assertThat(trace).isSameAs(RequestTrace.NONE);
    assertThat(trace.traceId()).isNull();
    assertThat(reply).isEmpty();
  }

  static Intake intake(Instant brokerTime) {
    return new Intake("jms", "av.scan.requests", brokerTime, RECEIVED);
  }

  static MessageInfo document(Verdict verdict) {
    return new MessageInfo(
        "jms:1",
        "1",
        null,
        "jms",
        null,
        null,
        null,
        68,
        null,
        verdict,
        verdict == Verdict.INFECTED ? List.of("Eicar-Test-Signature") : List.of(),
        null,
        "ClamAV",
        "1",
        false,
        RECEIVED,
        RECEIVED,
        3,
        4,
        "gw",
        false,
        Disposition.REPLIED,
        null);
  }
}
