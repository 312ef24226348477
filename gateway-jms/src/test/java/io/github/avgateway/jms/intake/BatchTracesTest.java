package io.github.avgateway.jms.intake;

import static org.assertj.core.api.Assertions.assertThat;

import brave.handler.MutableSpan;
import io.github.avgateway.core.testing.RecordingTracing;
import io.github.avgateway.core.trace.Intake;
import io.github.avgateway.core.trace.RequestTrace;
import io.micrometer.tracing.propagation.Propagator;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BatchTracesTest {

  private static final Propagator.Getter<Map<String, String>> GET = Map::get;

  @Test
  void onlyRecordedRequestsAreHeldAndEachEndsWithTheTransaction() {
    try (RecordingTracing sampled = RecordingTracing.sampled();
        RecordingTracing unsampled = RecordingTracing.unsampled()) {
      BatchTraces traces = new BatchTraces();
      RequestTrace kept = sampled.tracer().start(intake(), Map.of(), GET);
      RequestTrace skipped = unsampled.tracer().start(intake(), Map.of(), GET);
      traces.started(kept);
      traces.started(skipped);
      traces.started(RequestTrace.NONE);
      traces.handingOff();
      traces.committed();

      assertThat(sampled.spans())
          .extracting(MutableSpan::name)
          .containsExactly(BatchTraces.HISTORY_HAND_OFF, "scan request");
      assertThat(sampled.require("scan request").tags())
          .containsEntry("error", "committed without an answer");
      assertThat(unsampled.spans()).isEmpty();

      traces.rolledBack("nothing left to end");
      assertThat(sampled.spans()).hasSize(2);
    }
  }

  private static Intake intake() {
    Instant now = Instant.now();
    return new Intake("jms", "av.scan.requests", null, now);
  }
}
