package io.github.avgateway.core.clamd;

import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.IntakeGate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Whether clamd's signatures are recent enough. What is measured, first found wins:
 *
 * <ol>
 *   <li>the database date clamd reports with its version ({@code ClamAV 1.4.6/27451/<date>},
 *       official signatures);
 *   <li>otherwise, when a signature directory is configured (clamd's {@code DatabaseDirectory} as
 *       this host sees it), the newest modification time of the files in it;
 *   <li>otherwise nothing: the age is not measured, and this gate stays up (custom signatures on a
 *       remote clamd have no date the gateway can see).
 * </ol>
 *
 * Down while the measured age exceeds {@code maxAge}, or while a configured directory holds no
 * file. The measurement is refreshed at most every {@code refresh}, so {@link #intake()} stays
 * cheap enough for every batch.
 */
public final class SignatureFreshness implements IntakeGate {

  /**
   * One measurement.
   *
   * @param newest when the newest signatures were built or written; empty when unknown
   * @param source where {@code newest} came from, in words
   */
  public record Measurement(Optional<Instant> newest, String source) {}

  private record Cached(Measurement measurement, long takenNanos) {}

  private final Supplier<Optional<Instant>> versionDate;
  private final Optional<Path> directory;
  private final Duration maxAge;
  private final Duration refresh;
  private final Clock clock;
  private volatile Cached cached;

  /**
   * @param versionDate the date clamd reported with its version (e.g. {@link
   *     ClamdScanner#signatureDate()})
   * @param directory clamd's signature directory, when readable here
   * @param maxAge the oldest acceptable signatures; zero turns the check off
   * @param refresh how long one measurement is reused
   */
  public SignatureFreshness(
      Supplier<Optional<Instant>> versionDate,
      Optional<Path> directory,
      Duration maxAge,
      Duration refresh,
      Clock clock) {
    this.versionDate = Objects.requireNonNull(versionDate, "versionDate");
    this.directory = Objects.requireNonNull(directory, "directory");
    this.maxAge = Objects.requireNonNull(maxAge, "maxAge");
    this.refresh = Objects.requireNonNull(refresh, "refresh");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public Availability intake() {
    Measurement now = measurement();
    if (now.newest().isEmpty()) {
      return directory.isPresent()
          ? Availability.down("no clamd signature file found: " + now.source())
          : Availability.up();
    }
    Duration age = age(now.newest().get());
    if (!maxAge.isZero() && age.compareTo(maxAge) > 0) {
      return Availability.down(
          "clamd signatures are "
              + age.toHours()
              + " hours old ("
              + now.source()
              + "), older than the allowed "
              + maxAge.toHours()
              + " hours (avgateway.clamd.signatures.max-age): check freshclam");
    }
    return Availability.up();
  }

  /** The age of signatures built at {@code newest}; never negative. */
  public Duration age(Instant newest) {
    Duration age = Duration.between(newest, clock.instant());
    return age.isNegative() ? Duration.ZERO : age;
  }

  /** The current measurement, refreshed when older than the refresh interval. */
  public Measurement measurement() {
    Cached last = cached;
    long nowNanos = System.nanoTime();
    if (last == null || nowNanos - last.takenNanos() > refresh.toNanos()) {
      last = new Cached(measure(), nowNanos);
      cached = last;
    }
    return last.measurement();
  }

  private Measurement measure() {
    Optional<Instant> reported = versionDate.get();
    if (reported.isPresent()) {
      return new Measurement(reported, "database date reported by clamd VERSION");
    }
    if (directory.isEmpty()) {
      return new Measurement(
          Optional.empty(),
          "not measured: clamd reports no database date and no signature directory is set");
    }
    Path dir = directory.get();
    try {
      return new Measurement(newestFile(dir), "newest file in " + dir);
    } catch (IOException | UncheckedIOException e) {
      return new Measurement(Optional.empty(), "cannot read " + dir + ": " + e.getMessage());
    }
  }

  private static Optional<Instant> newestFile(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(Files::isRegularFile)
          .filter(f -> !f.getFileName().toString().startsWith("."))
          .map(SignatureFreshness::modified)
          .max(Instant::compareTo);
    }
  }

  private static Instant modified(Path file) {
    try {
      return Files.getLastModifiedTime(file).toInstant();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
