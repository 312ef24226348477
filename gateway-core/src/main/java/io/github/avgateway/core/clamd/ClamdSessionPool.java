package io.github.avgateway.core.clamd;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.NoSuchElementException;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

/**
 * The pooled sessions of one clamd endpoint (commons-pool2): at most {@code poolSize}, validated on
 * borrow when idle, evicted when idle longer than {@code evictIdleAfter}. Sessions are handed out
 * as {@link Lease}s, which either go back to the pool or are closed.
 */
final class ClamdSessionPool implements Closeable {

  private final ClamdSessionFactory factory;
  private final GenericObjectPool<ClamdSession> pool;

  ClamdSessionPool(ClamdEndpoint endpoint, ClamdSettings settings, Watchdog watchdog) {
    this.factory = new ClamdSessionFactory(endpoint, settings, watchdog);
    this.pool = new GenericObjectPool<>(factory, config(settings));
  }

  private static GenericObjectPoolConfig<ClamdSession> config(ClamdSettings settings) {
    GenericObjectPoolConfig<ClamdSession> config = new GenericObjectPoolConfig<>();
    config.setMaxTotal(settings.poolSize());
    config.setMaxIdle(settings.poolSize());
    config.setMinIdle(0);
    config.setLifo(true);
    config.setBlockWhenExhausted(true);
    config.setMaxWait(settings.borrowTimeout());
    config.setTestOnBorrow(true);
    config.setMinEvictableIdleDuration(settings.evictIdleAfter());
    config.setTimeBetweenEvictionRuns(evictionRunInterval(settings.evictIdleAfter()));
    config.setNumTestsPerEvictionRun(settings.poolSize());
    config.setJmxEnabled(false);
    return config;
  }

  /** Often enough that no session outlives {@code evictIdleAfter} by more than half of it. */
  private static Duration evictionRunInterval(Duration evictIdleAfter) {
    Duration half = evictIdleAfter.dividedBy(2);
    return half.isPositive() ? half : Duration.ofMillis(1);
  }

  /** A session kept for one use. */
  interface Lease {
    ClamdSession session();

    /** Ends the lease; a session that failed or is in doubt must not be {@code reusable}. */
    void end(boolean reusable);
  }

  /**
   * A pooled session.
   *
   * @throws IOException when a new session cannot be opened (endpoint unreachable)
   * @throws NoSuchElementException when every session stays busy for the borrow timeout
   */
  Lease borrow() throws IOException {
    ClamdSession session;
    try {
      session = pool.borrowObject();
    } catch (IOException | NoSuchElementException | IllegalStateException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException(e.getMessage(), e);
    }
    return new Lease() {
      @Override
      public ClamdSession session() {
        return session;
      }

      @Override
      public void end(boolean reusable) {
        giveBack(session, reusable);
      }
    };
  }

  /**
   * Returns the session to the pool; one that is not reusable is closed first, and the pool drops
   * it at its next borrow or eviction. (The pool's own invalidation would open a replacement right
   * away, on the scanning thread, even when the endpoint is down.)
   */
  private void giveBack(ClamdSession session, boolean reusable) {
    if (!reusable) {
      session.close();
    }
    pool.returnObject(session);
  }

  /** A new session outside the pool (for the retry after a broken one); closed when it ends. */
  Lease fresh() throws IOException {
    ClamdSession session = factory.open();
    return new Lease() {
      @Override
      public ClamdSession session() {
        return session;
      }

      @Override
      public void end(boolean reusable) {
        session.close();
      }
    };
  }

  /** Whether a new session answers PING within {@code timeout}. */
  void probe(Duration timeout) throws IOException {
    try (ClamdSession session = factory.open(timeout)) {
      session.ping();
    }
  }

  /** Closes every idle session: after one broke, the others are likely stale too. */
  void discardIdle() {
    pool.clear();
  }

  /** Sessions currently in use. */
  int active() {
    return pool.getNumActive();
  }

  /** Open sessions waiting in the pool. */
  int idle() {
    return pool.getNumIdle();
  }

  /** Scans waiting for a session. */
  int waiting() {
    return pool.getNumWaiters();
  }

  @Override
  public void close() {
    pool.close();
  }
}
