package io.github.avgateway.solr;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An in-JVM TCP proxy on 127.0.0.1 for network faults. {@link #freeze()} makes the peer look hung:
 * connections stay open but no byte is forwarded either way; {@link #thaw()} drops the frozen
 * connections and forwards again.
 */
final class TcpProxy implements AutoCloseable {

  private final ServerSocket server;
  private final InetSocketAddress target;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private volatile boolean frozen;

  TcpProxy(int targetPort) throws IOException {
    this.target = new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort);
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofVirtual().name("tcp-proxy-accept").start(this::acceptLoop);
  }

  int port() {
    return server.getLocalPort();
  }

  void freeze() {
    frozen = true;
  }

  void thaw() {
    frozen = false;
    sockets.forEach(TcpProxy::closeQuietly);
    sockets.clear();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket(target.getAddress(), target.getPort());
        sockets.add(client);
        sockets.add(upstream);
        Thread.ofVirtual().start(() -> pump(client, upstream));
        Thread.ofVirtual().start(() -> pump(upstream, client));
      } catch (IOException e) {
        if (server.isClosed()) {
          return;
        }
      }
    }
  }

  /** Copies bytes from {@code from} to {@code to}, dropping them while frozen. */
  private void pump(Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        if (!frozen) {
          out.write(buffer, 0, n);
          out.flush();
        }
      }
    } catch (IOException e) {
      // the other side closed or thaw() dropped the connection
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
    thaw();
  }
}
