package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.port.Availability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SignatureFreshnessTest {

  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  private static final Duration WEEK = Duration.ofDays(7);

  @TempDir Path dir;

  private static SignatureFreshness gate(Optional<Instant> reported, Optional<Path> directory) {
    return new SignatureFreshness(() -> reported, directory, WEEK, Duration.ZERO, CLOCK);
  }

  @Test
  void theDateClamdReportsWinsAndTooOldIsDownWithTheReason() {
    Availability old = gate(Optional.of(NOW.minus(Duration.ofDays(8))), Optional.of(dir)).intake();
    assertThat(old).isInstanceOf(Availability.Down.class);
    assertThat(((Availability.Down) old).why())
        .contains("192 hours old", "clamd VERSION", "avgateway.clamd.signatures.max-age");
    assertThat(gate(Optional.of(NOW.minus(Duration.ofDays(6))), Optional.empty()).intake())
        .isEqualTo(Availability.up());
  }

  @Test
  void withoutADateTheNewestFileInTheDirectoryCounts() throws Exception {
    Path oldFile = Files.writeString(dir.resolve("a.hdb"), "x");
    Files.setLastModifiedTime(oldFile, FileTime.from(NOW.minus(Duration.ofDays(30))));
    assertThat(gate(Optional.empty(), Optional.of(dir)).intake())
        .isInstanceOf(Availability.Down.class);
    Path fresh = Files.writeString(dir.resolve("b.ndb"), "x");
    Files.setLastModifiedTime(fresh, FileTime.from(NOW.minus(Duration.ofHours(1))));
    SignatureFreshness gate = gate(Optional.empty(), Optional.of(dir));
    assertThat(gate.intake()).isEqualTo(Availability.up());
    assertThat(gate.measurement().newest()).contains(NOW.minus(Duration.ofHours(1)));
  }

  @Test
  void aConfiguredDirectoryWithoutFilesIsDown() {
    Availability empty = gate(Optional.empty(), Optional.of(dir)).intake();
    assertThat(empty).isInstanceOf(Availability.Down.class);
    assertThat(((Availability.Down) empty).why()).contains("no clamd signature file found");
  }

  @Test
  void unmeasuredAgeIsUpAndSaysSo() {
    SignatureFreshness gate = gate(Optional.empty(), Optional.empty());
    assertThat(gate.intake()).isEqualTo(Availability.up());
    assertThat(gate.measurement().source()).startsWith("not measured");
  }

  @Test
  void zeroMaxAgeTurnsTheCheckOff() {
    SignatureFreshness off =
        new SignatureFreshness(
            () -> Optional.of(NOW.minus(Duration.ofDays(365))),
            Optional.empty(),
            Duration.ZERO,
            Duration.ZERO,
            CLOCK);
    assertThat(off.intake()).isEqualTo(Availability.up());
  }

  @Test
  void clamdVersionDatesParseWithPaddedDays() {
    assertThat(EngineVersionCache.parseDate("ClamAV 1.4.6/27451/Sun Nov 22 08:37:00 2026"))
        .contains(Instant.parse("2026-11-22T08:37:00Z"));
    assertThat(EngineVersionCache.parseDate("ClamAV 1.4.6/27451/Mon Nov  2 08:37:00 2026"))
        .contains(Instant.parse("2026-11-02T08:37:00Z"));
    assertThat(EngineVersionCache.parseDate("ClamAV 1.4.6")).isEmpty();
    assertThat(EngineVersionCache.parseDate("ClamAV 1.4.6/27451/garbage")).isEmpty();
  }
}
