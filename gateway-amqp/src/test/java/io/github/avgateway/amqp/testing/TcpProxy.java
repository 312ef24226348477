package io.github.avgateway.amqp.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-JVM TCP proxy on 127.0.0.1 for network faults: forwards every connection to a target port
 * and can cut all open connections at once, as a lost network would. Connections made after a cut
 * are forwarded again, so clients can recover.
 */
public final class TcpProxy implements AutoCloseable {

  private final int targetPort;
  private final ServerSocket server;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final AtomicInteger accepted = new AtomicInteger();
  private final Thread acceptor;

  public TcpProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    this.acceptor = Thread.ofPlatform().daemon().name("tcp-proxy-accept").start(this::acceptLoop);
  }

  /** The port clients connect to. */
  public int port() {
    return server.getLocalPort();
  }

  /** How many client connections were accepted so far. */
  public int accepted() {
    return accepted.get();
  }

  /** Closes every open connection, both sides. */
  public void cutAll() {
    for (Socket socket : open) {
      closeQuietly(socket);
    }
    open.clear();
  }

  @Override
  public void close() throws IOException {
    server.close();
    cutAll();
    acceptor.interrupt();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        accepted.incrementAndGet();
        open.add(client);
        open.add(upstream);
        pump(client, upstream);
        pump(upstream, client);
      } catch (IOException e) {
        // server closed, or the target refused: the client sees its connection fail
      }
    }
  }

  private void pump(Socket from, Socket to) {
    Thread.ofPlatform()
        .daemon()
        .name("tcp-proxy-pump")
        .start(() -> {
          byte[] buffer = new byte[65536];
          try (InputStream in = from.getInputStream();
              OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
              out.write(buffer, 0, n);
              out.flush();
            }
          } catch (IOException e) {
            // one side closed: close the other
          } finally {
            closeQuietly(from);
            closeQuietly(to);
            open.remove(from);
            open.remove(to);
          }
        });
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }
}
