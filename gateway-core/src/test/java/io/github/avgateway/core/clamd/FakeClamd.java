package io.github.avgateway.core.clamd;

import java.io.ByteArrayOutputStream;
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

  /**
   * Answers VERSION and PING like clamd, then never reads again once an INSTREAM starts: the
   * client's writes stall when the socket buffers are full.
   */
  static final Behavior VERSION_THEN_DEAF =
      onInstream((in, out, id, closed) -> DEAF.serve(in, out, closed));

  /** What to do when an INSTREAM with session id {@code id} starts; the connection closes after. */
  @FunctionalInterface
  interface InstreamAction {
    void run(InputStream in, OutputStream out, int id, CountDownLatch closed) throws IOException;
  }

  /** Plays clamd's session protocol for VERSION, PING and END, and {@code action} for INSTREAM. */
  static Behavior onInstream(InstreamAction action) {
    return (in, out, closed) -> {
      if (!readCommand(in).equals("zIDSESSION")) {
        return;
      }
      for (int id = 1; ; id++) {
        String command = readCommand(in);
        switch (command) {
          case "zVERSION" -> send(out, id + ": ClamAV 1.4.6");
          case "zPING" -> send(out, id + ": PONG");
          case "zINSTREAM" -> {
            action.run(in, out, id, closed);
            return;
          }
          default -> {
            return;
          }
        }
      }
    };
  }

  /** Answers an INSTREAM at once, before its payload was read, then closes. */
  static Behavior answersEarly(String replyTemplate) {
    return onInstream((in, out, id, closed) -> send(out, fill(replyTemplate, id)));
  }

  /**
   * Reads one whole INSTREAM, then sends {@code wireTemplate} as is ({@code {id}} and {@code
   * {next}} become the command's id and the one after) and closes.
   */
  static Behavior answersAfterStream(String wireTemplate) {
    return answersStreamsInTurn(wireTemplate);
  }

  /**
   * Like {@link #answersAfterStream(String)}, with one template per INSTREAM in the order the fake
   * receives them, on whichever connection: the first INSTREAM gets the first template, the second
   * the second, and every one after the last template gets the last.
   */
  static Behavior answersStreamsInTurn(String... wireTemplates) {
    if (wireTemplates.length == 0) {
      throw new IllegalArgumentException("no template");
    }
    AtomicInteger streams = new AtomicInteger();
    return onInstream((in, out, id, closed) -> {
      for (int length = readLength(in); length > 0; length = readLength(in)) {
        in.readNBytes(length);
      }
      String template =
          wireTemplates[Math.min(streams.getAndIncrement(), wireTemplates.length - 1)];
      out.write(fill(template, id).getBytes(StandardCharsets.US_ASCII));
      out.flush();
    });
  }

  private static String fill(String template, int id) {
    return template
        .replace("{id}", Integer.toString(id))
        .replace("{next}", Integer.toString(id + 1));
  }

  private static void send(OutputStream out, String reply) throws IOException {
    out.write((reply + "\0").getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  private static String readCommand(InputStream in) throws IOException {
    StringBuilder command = new StringBuilder();
    for (int b = in.read(); b > 0; b = in.read()) {
      command.append((char) b);
    }
    return command.toString();
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
  private final ByteArrayOutputStream received = new ByteArrayOutputStream();
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

  /** The first bytes received on all connections (up to 1 MiB), as ASCII. */
  String received() {
    synchronized (received) {
      return received.toString(StandardCharsets.ISO_8859_1);
    }
  }

  private void record(byte[] buffer, int offset, int length) {
    bytes.addAndGet(length);
    synchronized (received) {
      received.write(buffer, offset, Math.min(length, Math.max(0, (1 << 20) - received.size())));
    }
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
              if (b >= 0) {
                record(new byte[] {(byte) b}, 0, 1);
              }
              return b;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
              int n = super.read(buffer, offset, length);
              if (n > 0) {
                record(buffer, offset, n);
              }
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
