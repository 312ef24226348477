package io.github.avgateway.core.clamd;

import io.github.avgateway.core.port.Availability;
import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clamd endpoints with their pools and health. Scans go to an endpoint that is up, the least
 * busy one first (ties rotate). An endpoint is marked down when it cannot be reached or stays
 * silent, is skipped while down, and comes back once {@link #probe()} gets a PONG from it.
 */
final class ClamdEndpoints implements Closeable {

  private static final Logger log = LoggerFactory.getLogger(ClamdEndpoints.class);

  /** One endpoint, its pool and its current health. */
  static final class Member {
    private final ClamdEndpoint endpoint;
    private final ClamdSessionPool pool;
    private volatile String downReason;
    private volatile Instant downSince;

    private Member(ClamdEndpoint endpoint, ClamdSessionPool pool) {
      this.endpoint = endpoint;
      this.pool = pool;
    }

    ClamdEndpoint endpoint() {
      return endpoint;
    }

    ClamdSessionPool pool() {
      return pool;
    }

    boolean isUp() {
      return downReason == null;
    }

    private String describe() {
      return isUp() ? endpoint + " up" : endpoint + " down since " + downSince + ": " + downReason;
    }
  }

  private final List<Member> members;
  private final Duration probeTimeout;
  private final AtomicInteger rotation = new AtomicInteger();
  private final AtomicLong markedDown = new AtomicLong();

  ClamdEndpoints(ClamdSettings settings, Watchdog watchdog) {
    this.members =
        settings.endpoints().stream()
            .map(e -> new Member(e, new ClamdSessionPool(e, settings, watchdog)))
            .toList();
    this.probeTimeout = settings.connectTimeout();
  }

  int size() {
    return members.size();
  }

  /** An endpoint that is up, the least busy first; empty when all are down. */
  Optional<Member> pick() {
    int size = members.size();
    if (size == 1) {
      Member only = members.get(0);
      return only.isUp() ? Optional.of(only) : Optional.empty();
    }
    int start = Math.floorMod(rotation.getAndIncrement(), size);
    Member best = null;
    int leastActive = Integer.MAX_VALUE;
    for (int i = 0; i < size; i++) {
      Member member = members.get((start + i) % size);
      if (member.isUp()) {
        int active = member.pool().active();
        if (active < leastActive) {
          best = member;
          leastActive = active;
        }
      }
    }
    return Optional.ofNullable(best);
  }

  /** Takes {@code member} out of rotation until a probe succeeds; drops its idle sessions. */
  void markDown(Member member, String reason) {
    if (member.isUp()) {
      markedDown.incrementAndGet();
      member.downSince = Instant.now();
      log.warn("clamd endpoint {} marked down: {}", member.endpoint(), reason);
    }
    member.downReason = reason;
    member.pool().discardIdle();
  }

  /** How many times an endpoint that was up has been marked down so far. */
  long markedDown() {
    return markedDown.get();
  }

  /**
   * PINGs, on a new connection, every endpoint that is down (bringing back those that answer) and
   * every idle endpoint that is up (marking down those that do not), so that a clamd that stopped
   * while no scan ran is noticed within a probe interval. A busy endpoint is watched by its scans.
   */
  void probe() {
    for (Member member : members) {
      boolean wasUp = member.isUp();
      if (wasUp && member.pool().active() > 0) {
        continue;
      }
      try {
        probeOnce(member, wasUp);
        if (!wasUp) {
          member.downReason = null;
          log.info("clamd endpoint {} answers again", member.endpoint());
        }
      } catch (IOException e) {
        String why = "PING failed: " + e;
        if (wasUp) {
          markDown(member, why);
        } else {
          member.downReason = why;
        }
      }
    }
  }

  /**
   * PINGs {@code member} on a new connection; an endpoint that is up gets a second try on another
   * new connection before it counts as failed, as a scan gets one retry, so that one connection
   * lost in passing does not take an answering clamd out of service.
   */
  private void probeOnce(Member member, boolean wasUp) throws IOException {
    try {
      member.pool().probe(probeTimeout);
    } catch (IOException first) {
      if (!wasUp) {
        throw first;
      }
      member.pool().probe(probeTimeout);
    }
  }

  /** Up while at least one endpoint is up; otherwise says why each one is down. */
  Availability availability() {
    for (Member member : members) {
      if (member.isUp()) {
        return Availability.up();
      }
    }
    return Availability.down("no clamd endpoint is up: " + describe());
  }

  /** Every endpoint's health and pool use, in configuration order. */
  List<ClamdEndpointState> states() {
    return members.stream()
        .map(m ->
            new ClamdEndpointState(
                m.endpoint().toString(),
                m.isUp(),
                m.pool().active(),
                m.pool().idle(),
                m.pool().waiting(),
                m.isUp() ? "" : m.downReason))
        .toList();
  }

  /** Every endpoint's state, for error details. */
  String describe() {
    return members.stream().map(Member::describe).collect(Collectors.joining("; "));
  }

  @Override
  public void close() {
    members.forEach(m -> m.pool().close());
  }
}
