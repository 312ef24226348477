package io.github.avgateway.core.clamd;

import io.github.avgateway.core.model.EngineVersion;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The engine and signature version clamd last reported. Starts as {@link EngineVersion#UNKNOWN}; a
 * reply that is not a version leaves the cached value as it was.
 */
final class EngineVersionCache {

  private final AtomicReference<EngineVersion> current =
      new AtomicReference<>(EngineVersion.UNKNOWN);
  private final AtomicReference<Optional<Instant>> signatureDate =
      new AtomicReference<>(Optional.empty());

  /**
   * clamd's {@code ctime} format after the weekday, e.g. {@code Nov 22 08:37:00 2026} (the day may
   * be padded; the weekday is dropped, so it cannot contradict the date).
   */
  private static final DateTimeFormatter CTIME =
      DateTimeFormatter.ofPattern("MMM d HH:mm:ss yyyy", Locale.ROOT);

  /**
   * Parses clamd's {@code VERSION} reply: {@code ClamAV 1.4.6/27451/<date>} gives engine {@code
   * ClamAV 1.4.6} and signature version {@code 27451}; {@code ClamAV 1.4.6} alone (custom
   * signatures only) gives an empty signature version. Anything else is {@link
   * EngineVersion#UNKNOWN}.
   */
  static EngineVersion parse(String reply) {
    if (reply == null || !reply.strip().startsWith("ClamAV ")) {
      return EngineVersion.UNKNOWN;
    }
    String[] parts = reply.strip().split("/", 3);
    String engine = parts[0].strip();
    String signatures = parts.length > 1 ? parts[1].strip() : "";
    if (engine.equals("ClamAV")) {
      return EngineVersion.UNKNOWN;
    }
    return new EngineVersion(engine, signatures.matches("\\d+") ? signatures : "");
  }

  EngineVersion current() {
    return current.get();
  }

  boolean isUnknown() {
    return current.get().equals(EngineVersion.UNKNOWN);
  }

  /**
   * The build date of the signature database from {@code ClamAV 1.4.6/27451/<date>}, read as UTC
   * (clamd prints its host's local time, so this may be off by the host's UTC offset); empty when
   * the reply has no date (custom signatures only) or it does not parse.
   */
  static Optional<Instant> parseDate(String reply) {
    String[] parts = reply == null ? new String[0] : reply.strip().split("/", 3);
    if (parts.length < 3 || !parts[0].startsWith("ClamAV ")) {
      return Optional.empty();
    }
    try {
      String text = parts[2].strip().replaceAll("\\s+", " ").replaceFirst("^[A-Za-z]{3} ", "");
      return Optional.of(LocalDateTime.parse(text, CTIME).toInstant(ZoneOffset.UTC));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /** The signature database date clamd last reported, if it reports one. */
  Optional<Instant> signatureDate() {
    return signatureDate.get();
  }

  /** Takes a new {@code VERSION} reply; keeps the old value when it does not parse. */
  void update(String reply) {
    EngineVersion parsed = parse(reply);
    if (!parsed.equals(EngineVersion.UNKNOWN)) {
      current.set(parsed);
      signatureDate.set(parseDate(reply));
    }
  }
}
