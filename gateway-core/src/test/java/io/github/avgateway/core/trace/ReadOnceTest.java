package io.github.avgateway.core.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.tracing.propagation.Propagator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReadOnceTest {

  private final List<String> reads = new ArrayList<>();
  private final Propagator.Getter<Map<String, String>> counting =
      (carrier, name) -> {
        reads.add(name);
        return carrier.get(name);
      };

  @Test
  void eachNameIsReadFromTheCarrierOnceAndAnAbsentOneStaysAbsent() {
    Map<String, String> request = Map.of("traceparent", "tp", "b3", "1");
    ReadOnce<Map<String, String>> headers = new ReadOnce<>(request, counting);

    List<String> values = new ArrayList<>();
    for (String name : List.of("traceparent", "b3", "X-B3-Flags", "traceparent", "X-B3-Flags")) {
      values.add(headers.get(request, name));
    }
    values.add(headers.get("b3"));

    assertThat(values).containsExactly("tp", "1", null, "tp", null, "1");
    assertThat(reads).containsExactly("traceparent", "b3", "X-B3-Flags");
  }

  @Test
  void aHeaderThatCannotBeReadIsAbsentAndNotAskedForAgain() {
    List<String> asked = new ArrayList<>();
    Propagator.Getter<Map<String, String>> failing =
        (carrier, name) -> {
          asked.add(name);
          throw new IllegalStateException("unreadable " + name);
        };
    ReadOnce<Map<String, String>> headers = new ReadOnce<>(Map.of(), failing);

    assertThat(headers.get("traceparent")).isNull();
    assertThat(headers.get("traceparent")).isNull();
    assertThat(asked).containsExactly("traceparent");
  }

  @Test
  void anotherCarrierIsReadThroughAndNoCarrierHasNoHeaders() {
    Map<String, String> request = new HashMap<>(Map.of("traceparent", "mine"));
    ReadOnce<Map<String, String>> headers = new ReadOnce<>(request, counting);

    assertThat(headers.get(Map.of("traceparent", "other"), "traceparent")).isEqualTo("other");
    assertThat(headers.get(request, "traceparent")).isEqualTo("mine");
    assertThat(new ReadOnce<>(null, counting).get("traceparent")).isNull();
    assertThat(reads).containsExactly("traceparent", "traceparent");
  }

  @Test
  void beyondItsCapacityANameIsReadAgainButReadCorrectly() {
    Map<String, String> request = new HashMap<>();
    for (int i = 0; i < 20; i++) {
      request.put("field-" + i, "value-" + i);
    }
    ReadOnce<Map<String, String>> headers = new ReadOnce<>(request, counting);

    for (int i = 0; i < 20; i++) {
      assertThat(headers.get("field-" + i)).isEqualTo("value-" + i);
    }
    assertThat(headers.get("field-19")).isEqualTo("value-19");
    assertThat(headers.get("field-3")).isEqualTo("value-3");
    assertThat(reads).as("the first 16 names remembered, the rest read again").hasSize(21);
    assertThat(reads.stream().filter("field-3"::equals).count()).isEqualTo(1);
    assertThat(reads.stream().filter("field-19"::equals).count()).isEqualTo(2);
  }
}
