package io.github.avgateway.core.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * An in-JVM TCP proxy on 127.0.0.1 for deterministic network faults in front of a real service
 * (clamd, RabbitMQ, Solr). {@link #cutAll()} closes every carried connection, as a restart or a
 * lost network would; {@link #freeze()} makes the peer look hung (connections stay open, no byte
 * passes either way, no FIN); {@link #thaw()} drops the frozen connections and forwards again;
 * {@link #latency(Duration)} holds every chunk of bytes that long before forwarding it (a slow
 * peer), {@link #latencyFromTarget(Duration)} only the chunks coming back from the target (e.g. a
 * broker's deliveries and publisher confirms late, while what the client sends arrives at once),
 * {@link #latencyToTarget(Duration)} only the chunks toward the target (e.g. a commit reaches the
 * broker late, its answers come back at once). Each direction forwards one chunk at a time, so held
 * chunks queue up behind each other. Connections made after a cut are forwarded, so clients can
 * recover. Shipped in gateway-core's test-jar for every module's fault tests.
 */
public final class TcpProxy implements AutoCloseable {

  private final ServerSocket server;
  private final InetSocketAddress target;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final AtomicInteger connections = new AtomicInteger();
  private volatile boolean frozen;
  private volatile Duration toTarget = Duration.ZERO;
  private volatile Duration fromTarget = Duration.ZERO;

  private TcpProxy(ServerSocket server, InetSocketAddress target) {
    this.server = server;
    this.target = target;
  }

  /** A proxy on a free port of 127.0.0.1 to {@code targetPort} on 127.0.0.1. */
  public static TcpProxy to(int targetPort) throws IOException {
    return start(0, "127.0.0.1", targetPort);
  }

  /** A proxy on {@code listenPort} (0 for any free one) of 127.0.0.1 to the target. */
  public static TcpProxy start(int listenPort, String targetHost, int targetPort)
      throws IOException {
    ServerSocket server = new ServerSocket();
    server.setReuseAddress(true);
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), listenPort), 50);
    TcpProxy proxy = new TcpProxy(server, new InetSocketAddress(targetHost, targetPort));
    Thread.ofVirtual().name("tcp-proxy-accept").start(proxy::acceptLoop);
    return proxy;
  }

  /** The port clients connect to. */
  public int port() {
    return server.getLocalPort();
  }

  /** Connections accepted so far. */
  public int connections() {
    return connections.get();
  }

  /** Closes every connection currently carried, both sides. */
  public void cutAll() {
    sockets.forEach(TcpProxy::closeQuietly);
    sockets.clear();
  }

  /** From now on no byte is forwarded either way; connections stay open. */
  public void freeze() {
    frozen = true;
  }

  /** Drops the connections open now (frozen ones) and forwards again. */
  public void thaw() {
    frozen = false;
    cutAll();
  }

  /**
   * From now on every chunk, either way, is forwarded {@code latency} late (zero: at once again).
   */
  public void latency(Duration latency) {
    this.toTarget = latency;
    this.fromTarget = latency;
  }

  /**
   * From now on the chunks from the target to the client are forwarded {@code latency} late, and
   * those from the client to the target at once.
   */
  public void latencyFromTarget(Duration latency) {
    this.toTarget = Duration.ZERO;
    this.fromTarget = latency;
  }

  /**
   * From now on the chunks from the client to the target are forwarded {@code latency} late, and
   * those from the target to the client at once. A chunk already read is still forwarded when its
   * sender goes away meanwhile, as bytes already on the wire are.
   */
  public void latencyToTarget(Duration latency) {
    this.toTarget = latency;
    this.fromTarget = Duration.ZERO;
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        connections.incrementAndGet();
        Socket upstream = connectUpstream(client);
        if (upstream == null) {
          continue;
        }
        sockets.add(client);
        sockets.add(upstream);
        Thread.ofVirtual().start(() -> pump(client, upstream, () -> toTarget));
        Thread.ofVirtual().start(() -> pump(upstream, client, () -> fromTarget));
      } catch (IOException e) {
        if (server.isClosed()) {
          return;
        }
      }
    }
  }

  /**
   * The connection to the target, or null when it refuses: the client's connection is then closed
   * at once, as a refused connection looks to it (never left open and silent).
   */
  private Socket connectUpstream(Socket client) {
    try {
      return new Socket(target.getAddress(), target.getPort());
    } catch (IOException e) {
      closeQuietly(client);
      return null;
    }
  }

  /**
   * Copies bytes from {@code from} to {@code to}, {@code latency} late, dropping them while frozen.
   */
  private void pump(Socket from, Socket to, Supplier<Duration> latency) {
    byte[] buffer = new byte[16 * 1024];
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        Duration wait = latency.get();
        if (!wait.isZero()) {
          LockSupport.parkNanos(wait.toNanos());
        }
        if (!frozen) {
          out.write(buffer, 0, n);
          out.flush();
        }
      }
    } catch (IOException e) {
      // the other side closed, or cutAll() dropped the connection
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    cutAll();
  }
}
