package io.github.avgateway.core.clamd;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * One TCP connection to clamd in {@code zIDSESSION} mode, used by one thread at a time. Every
 * command waits for its own reply (matched by id) before the next is sent. Reads time out after the
 * read timeout; writes that make no progress for as long are cut by the {@link Watchdog}. Any
 * {@link IOException} leaves the session unusable: close it.
 */
final class ClamdSession implements Closeable {

  /** How an INSTREAM ended. */
  sealed interface InstreamResult {
    /** clamd replied; {@code wholePayloadSent} is false when it replied to a cut stream. */
    record Replied(String text, boolean wholePayloadSent) implements InstreamResult {}

    /** The payload passed the gateway limit; the stream was abandoned unfinished. */
    record TooLarge(long bytesRead) implements InstreamResult {}
  }

  private final ClamdEndpoint endpoint;
  private final Socket socket;
  private final OutputStream out;
  private final byte[] frame;
  private final SessionReplyReader replies;
  private int lastId;
  private boolean betweenCommands = true;
  private long lastUsedNanos = System.nanoTime();

  private ClamdSession(ClamdEndpoint endpoint, Socket socket, Watchdog watchdog, int frameSize)
      throws IOException {
    this.endpoint = endpoint;
    this.socket = socket;
    Duration stall = Duration.ofMillis(socket.getSoTimeout());
    // Unbuffered: every command and every INSTREAM frame is assembled whole before it is written.
    this.out = new GuardedOutputStream(socket, watchdog, stall);
    this.frame = new byte[frameSize];
    this.replies = new SessionReplyReader(new BufferedInputStream(socket.getInputStream()));
  }

  /**
   * Connects and starts a session whose INSTREAM frames are assembled in a buffer of {@code
   * frameSize} bytes ({@link InstreamWriter#frameBufferSize(int)}), kept for all its scans.
   */
  static ClamdSession open(
      ClamdEndpoint endpoint,
      Duration connectTimeout,
      Duration readTimeout,
      Watchdog watchdog,
      int frameSize)
      throws IOException {
    Socket socket = new Socket();
    try {
      socket.connect(
          new InetSocketAddress(endpoint.host(), endpoint.port()),
          Math.toIntExact(connectTimeout.toMillis()));
      socket.setSoTimeout(Math.toIntExact(readTimeout.toMillis()));
      socket.setTcpNoDelay(true);
      ClamdSession session = new ClamdSession(endpoint, socket, watchdog, frameSize);
      session.send("zIDSESSION");
      return session;
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
  }

  ClamdEndpoint endpoint() {
    return endpoint;
  }

  /** Whether this session was closed (by {@link #close()} or by the watchdog). */
  boolean isClosed() {
    return socket.isClosed();
  }

  /** Nanoseconds since this session last completed a command (or was opened). */
  long idleNanos() {
    return System.nanoTime() - lastUsedNanos;
  }

  /** Sends {@code zPING}; fails unless clamd answers {@code PONG}. */
  void ping() throws IOException {
    String reply = command("zPING");
    if (!reply.equals("PONG")) {
      throw new ClamdProtocolException("clamd answered PING with: " + reply);
    }
  }

  /** Sends {@code zVERSION} and returns clamd's text, e.g. {@code ClamAV 1.4.6/27451/date}. */
  String version() throws IOException {
    return command("zVERSION");
  }

  /**
   * Streams the payload with {@code zINSTREAM} and reads the reply. When a write fails, a reply
   * clamd sent before closing (such as its size limit error) is still read, marked as answering a
   * cut stream.
   *
   * @throws PayloadException when reading the payload fails (the session is then unusable)
   */
  InstreamResult instream(InputStream payload, InstreamWriter writer)
      throws IOException, PayloadException {
    int id = ++lastId;
    betweenCommands = false;
    InstreamWriter.Result written;
    try {
      written = writer.write(payload, out, frame);
    } catch (SocketTimeoutException e) {
      throw e;
    } catch (IOException writeFailure) {
      return new InstreamResult.Replied(replyAfterFailedWrite(id, writeFailure), false);
    }
    return switch (written) {
      case InstreamWriter.Result.TooLarge t -> new InstreamResult.TooLarge(t.bytesRead());
      case InstreamWriter.Result.Sent s -> new InstreamResult.Replied(reply(id), true);
    };
  }

  private String replyAfterFailedWrite(int id, IOException writeFailure) throws IOException {
    try {
      return reply(id);
    } catch (IOException noReply) {
      writeFailure.addSuppressed(noReply);
      throw writeFailure;
    }
  }

  private String command(String command) throws IOException {
    int id = ++lastId;
    send(command);
    return reply(id);
  }

  private void send(String command) throws IOException {
    betweenCommands = false;
    out.write((command + "\0").getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  private String reply(int id) throws IOException {
    String text = replies.read(id);
    betweenCommands = true;
    lastUsedNanos = System.nanoTime();
    return text;
  }

  /**
   * Ends the session with {@code zEND} when it is between commands (never in the middle of an
   * abandoned stream, where the bytes would be taken as payload), then closes the connection.
   */
  @Override
  public void close() {
    try (socket) {
      if (betweenCommands && !socket.isClosed()) {
        send("zEND");
      }
    } catch (IOException e) {
      // Already broken: closing is all that is left.
    }
  }
}
