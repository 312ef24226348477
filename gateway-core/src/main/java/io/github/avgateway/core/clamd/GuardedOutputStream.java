package io.github.avgateway.core.clamd;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * The socket's output with a deadline on every write: a write that makes no progress for {@code
 * stall} is cut (the socket closed by the {@link Watchdog}) and reported as a {@link
 * SocketTimeoutException}, so a clamd that stops reading cannot block a scan forever.
 */
final class GuardedOutputStream extends FilterOutputStream {

  private final Watchdog.Guard guard;
  private final Duration stall;

  GuardedOutputStream(Socket socket, Watchdog watchdog, Duration stall) throws IOException {
    super(socket.getOutputStream());
    this.guard = watchdog.guard(socket);
    this.stall = stall;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] bytes, int offset, int length) throws IOException {
    guard.arm(stall);
    try {
      out.write(bytes, offset, length);
    } catch (IOException e) {
      throw guard.disarm() ? stalled() : e;
    }
    if (guard.disarm()) {
      throw stalled();
    }
  }

  private SocketTimeoutException stalled() {
    return new SocketTimeoutException("clamd took no data for " + ClamdAttempts.text(stall));
  }
}
