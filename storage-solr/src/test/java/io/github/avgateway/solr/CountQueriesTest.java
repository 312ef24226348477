package io.github.avgateway.solr;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.port.TimeRange;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class CountQueriesTest {

  private static TimeRange at(String from, String to) {
    return new TimeRange(
        Instant.parse("2001-02-03T" + from + ":00Z"), Instant.parse("2001-02-03T" + to + ":00Z"));
  }

  @Test
  void liveRangesBecomeSpansOfWholeHoursThatShareNoHour() {
    List<TimeRange> live =
        List.of(
            at("10:20", "10:30"), at("10:48", "10:50"), at("11:30", "11:32"), at("13:00", "13:10"));
    assertThat(CountQueries.hourSpans(live))
        .containsExactly(at("10:00", "12:00"), at("13:00", "14:00"));
  }

  @Test
  void aRangeEndingOnTheHourDoesNotTouchTheNextHour() {
    assertThat(CountQueries.hourSpans(List.of(at("09:50", "10:00"), at("10:00", "10:10"))))
        .containsExactly(at("09:00", "11:00"));
    assertThat(CountQueries.hourSpans(List.of(at("09:50", "10:00"), at("11:00", "11:10"))))
        .containsExactly(at("09:00", "10:00"), at("11:00", "12:00"));
  }
}
