package io.github.avgateway.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimeRoutingTest {

  private static final Duration DAY = Duration.ofDays(1);

  @Test
  void theDefaultsMakeDailyCollectionsKeptThirtyDaysAndDroppedAfterThirtyTwo() {
    TimeRouting routing =
        new TimeRouting(DAY, Duration.ofMinutes(10), Duration.ofHours(1), Duration.ofDays(30));

    assertThat(routing.intervalMath()).isEqualTo("+1DAYS");
    assertThat(routing.preemptiveCreateMath()).isEqualTo("1HOURS");
    // 30 days + the interval + the window + max-future, rounded up to whole days
    assertThat(routing.autoDeleteAge()).isEqualTo("-32DAYS");
  }

  @Test
  void theAutoDeleteAgeIsWholeIntervalsAndAbsentWithoutRetention() {
    Duration sixHours = Duration.ofHours(6);
    assertThat(
            new TimeRouting(sixHours, Duration.ofMinutes(10), Duration.ZERO, Duration.ofHours(12))
                .autoDeleteAge())
        .isEqualTo("-1DAYS"); // 12h + 6h + 10m, rounded up to four intervals
    assertThat(
            new TimeRouting(DAY, Duration.ofMinutes(10), Duration.ZERO, Duration.ZERO)
                .autoDeleteAge())
        .isNull();
    assertThat(
            new TimeRouting(DAY, Duration.ofMinutes(10), Duration.ZERO, DAY).preemptiveCreateMath())
        .isNull();
    assertThat(
            new TimeRouting(Duration.ofMinutes(90), Duration.ofMinutes(1), Duration.ZERO, DAY)
                .intervalMath())
        .isEqualTo("+90MINUTES");
  }

  @Test
  void theFirstCollectionStartsOnAWholeInterval() {
    TimeRouting daily = new TimeRouting(DAY, Duration.ofMinutes(10), Duration.ZERO, DAY);
    TimeRouting sixHourly =
        new TimeRouting(Duration.ofHours(6), Duration.ofMinutes(10), Duration.ZERO, DAY);
    Instant instant = Instant.parse("2026-03-04T13:14:15.678Z");

    assertThat(daily.intervalStart(instant)).isEqualTo(Instant.parse("2026-03-04T00:00:00Z"));
    assertThat(sixHourly.intervalStart(instant)).isEqualTo(Instant.parse("2026-03-04T12:00:00Z"));
  }

  @Test
  void settingsSolrCannotUseAreRefused() {
    Duration tenMinutes = Duration.ofMinutes(10);
    assertThatThrownBy(
            () -> new TimeRouting(Duration.ofSeconds(90), tenMinutes, Duration.ZERO, DAY))
        .hasMessageContaining("whole minutes");
    assertThatThrownBy(() -> new TimeRouting(DAY, Duration.ofSeconds(30), Duration.ZERO, DAY))
        .hasMessageContaining("max-future");
    assertThatThrownBy(() -> new TimeRouting(DAY, tenMinutes, DAY, DAY))
        .hasMessageContaining("shorter than the interval");
    assertThatThrownBy(() -> new TimeRouting(DAY, tenMinutes, Duration.ZERO, DAY.negated()))
        .hasMessageContaining("negative");
  }
}
