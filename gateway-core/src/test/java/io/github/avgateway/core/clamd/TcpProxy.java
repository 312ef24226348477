package io.github.avgateway.core.clamd;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-JVM TCP proxy in front of clamd, for network faults: {@link #cutAll()} closes every
 * connection it carries (as a restart or a firewall would) while new connections still pass.
 */
final class TcpProxy implements AutoCloseable {

  private final ServerSocket server;
  private final ClamdEndpoint target;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final AtomicInteger connections = new AtomicInteger();

  private TcpProxy(ServerSocket server, ClamdEndpoint target) {
    this.server = server;
    this.target = target;
  }

  /** A proxy on {@code port} (0 for any free one) to {@code target}. */
  static TcpProxy start(int port, ClamdEndpoint target) throws IOException {
    ServerSocket server = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
    server.setReuseAddress(true);
    TcpProxy proxy = new TcpProxy(server, target);
    Thread.ofVirtual().name("proxy-accept").start(proxy::acceptLoop);
    return proxy;
  }

  ClamdEndpoint endpoint() {
    return new ClamdEndpoint("127.0.0.1", server.getLocalPort());
  }

  /** Connections accepted so far. */
  int connections() {
    return connections.get();
  }

  /** Closes every connection currently carried (both sides). */
  void cutAll() {
    for (Socket socket : sockets) {
      closeQuietly(socket);
    }
    sockets.clear();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        connections.incrementAndGet();
        Socket upstream = new Socket();
        upstream.connect(new InetSocketAddress(target.host(), target.port()), 2000);
        sockets.add(client);
        sockets.add(upstream);
        pump(client, upstream);
        pump(upstream, client);
      } catch (IOException e) {
        // Closed, or the target refused: the client sees its connection end.
      }
    }
  }

  private static void pump(Socket from, Socket to) {
    Thread.ofVirtual()
        .start(() -> {
          try (InputStream in = from.getInputStream();
              OutputStream out = to.getOutputStream()) {
            in.transferTo(out);
          } catch (IOException e) {
            // One side ended: end the other too.
          } finally {
            closeQuietly(from);
            closeQuietly(to);
          }
        });
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // Already closed.
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    cutAll();
  }
}
