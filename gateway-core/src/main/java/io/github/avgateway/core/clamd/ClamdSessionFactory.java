package io.github.avgateway.core.clamd;

import java.io.IOException;
import java.time.Duration;
import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;

/**
 * Opens, checks and closes the sessions of one endpoint for its pool. A closed session is never
 * handed out, and one that sat idle longer than {@code validateAfterIdle} must answer PING first,
 * so that sessions clamd dropped (IdleTimeout, restart) are replaced instead of failing a scan.
 */
final class ClamdSessionFactory extends BasePooledObjectFactory<ClamdSession> {

  private final ClamdEndpoint endpoint;
  private final ClamdSettings settings;
  private final Watchdog watchdog;

  ClamdSessionFactory(ClamdEndpoint endpoint, ClamdSettings settings, Watchdog watchdog) {
    this.endpoint = endpoint;
    this.settings = settings;
    this.watchdog = watchdog;
  }

  /** A new session with the configured timeouts. */
  ClamdSession open() throws IOException {
    return open(settings.readTimeout());
  }

  /** A new session whose reads time out after {@code readTimeout} (short for probes). */
  ClamdSession open(Duration readTimeout) throws IOException {
    return ClamdSession.open(
        endpoint,
        settings.connectTimeout(),
        readTimeout,
        watchdog,
        InstreamWriter.frameBufferSize(settings.chunkSizeBytes()));
  }

  @Override
  public ClamdSession create() throws IOException {
    return open();
  }

  @Override
  public PooledObject<ClamdSession> wrap(ClamdSession session) {
    return new DefaultPooledObject<>(session);
  }

  @Override
  public boolean validateObject(PooledObject<ClamdSession> pooled) {
    ClamdSession session = pooled.getObject();
    if (session.isClosed()) {
      return false;
    }
    if (session.idleNanos() <= settings.validateAfterIdle().toNanos()) {
      return true;
    }
    try {
      session.ping();
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void destroyObject(PooledObject<ClamdSession> pooled) {
    pooled.getObject().close();
  }
}
