package io.github.avgateway.core.clamd;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP server that plays a misbehaving clamd, one {@link Behavior} per connection, and records how
 * many connections and bytes it received.
 */
final class FakeClamd implements AutoCloseable {

  /** What the fake does with one accepted connection. */
  @FunctionalInterface
  interface Behavior {
    void serve(InputStream in, OutputStream out, CountDownLatch closed) throws IOException;
  }

  /** Reads and counts everything, never answers. */
  static final Behavior SILENT =
      (in, out, closed) -> in.transferTo(OutputStream.nullOutputStream());

  /** Never reads, never answers: the client's writes stall once the buffers are full. */
  static final Behavior DEAF =
      (in, out, closed) -> {
        try {
          closed.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      };

  /** Waits for {@code zIDSESSION} and the start of an INSTREAM, answers {@code reply}, closes. */
  static Behavior answersEarly(String reply) {
    return (in, out, closed) -> {
      in.readNBytes("zIDSESSION\0zINSTREAM\0".length() + 4);
      out.write((reply + "\0").getBytes(StandardCharsets.US_ASCII));
      out.flush();
    };
  }

  /** Reads one whole INSTREAM, then sends {@code wire} as is and closes. */
  static Behavior answersAfterStream(String wire) {
    return (in, out, closed) -> {
      in.readNBytes("zIDSESSION\0zINSTREAM\0".length());
      for (int length = readLength(in); length > 0; length = readLength(in)) {
        in.readNBytes(length);
      }
      out.write(wire.getBytes(StandardCharsets.US_ASCII));
      out.flush();
    };
  }

  private static int readLength(InputStream in) throws IOException {
    byte[] b = in.readNBytes(4);
    if (b.length < 4) {
      return -1;
    }
    return ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
  }

  private final ServerSocket server;
  private final Behavior behavior;
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicLong bytes = new AtomicLong();
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final CountDownLatch closed = new CountDownLatch(1);

  private FakeClamd(ServerSocket server, Behavior behavior) {
    this.server = server;
    this.behavior = behavior;
  }

  static FakeClamd start(Behavior behavior) throws IOException {
    FakeClamd fake =
        new FakeClamd(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), behavior);
    Thread.ofVirtual().name("fake-clamd").start(fake::acceptLoop);
    return fake;
  }

  ClamdEndpoint endpoint() {
    return new ClamdEndpoint("127.0.0.1", server.getLocalPort());
  }

  int connections() {
    return connections.get();
  }

  long bytesReceived() {
    return bytes.get();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket socket = server.accept();
        connections.incrementAndGet();
        sockets.add(socket);
        Thread.ofVirtual().start(() -> serve(socket));
      } catch (IOException e) {
        // Closed.
      }
    }
  }

  private void serve(Socket socket) {
    try (socket) {
      InputStream counting =
          new java.io.FilterInputStream(socket.getInputStream()) {
            @Override
            public int read() throws IOException {
              int b = super.read();
              bytes.addAndGet(b < 0 ? 0 : 1);
              return b;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
              int n = super.read(buffer, offset, length);
              bytes.addAndGet(Math.max(n, 0));
              return n;
            }
          };
      behavior.serve(counting, socket.getOutputStream(), closed);
    } catch (IOException e) {
      // The client went away.
    }
  }

  @Override
  public void close() throws IOException {
    closed.countDown();
    server.close();
    for (Socket socket : sockets) {
      socket.close();
    }
  }
}
