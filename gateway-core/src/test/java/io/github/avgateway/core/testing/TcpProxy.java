package io.github.avgateway.core.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * An in-JVM TCP proxy on 127.0.0.1 for deterministic network faults in front of a real service
 * (clamd, RabbitMQ, Solr). {@link #cutAll()} closes every carried connection, as a restart or a
 * lost network would; {@link #freeze()} makes the peer look hung (connections stay open, no byte
 * passes either way, no FIN); {@link #thaw()} drops the frozen connections and forwards again;
 * {@link #latency(Duration)} delays every chunk of bytes that long before forwarding it (a slow
 * peer), {@link #latencyFromTarget(Duration)} only the chunks coming back from the target (e.g. a
 * broker's deliveries and publisher confirms late, while what the client sends arrives at once),
 * {@link #latencyToTarget(Duration)} only the chunks toward the target (e.g. a commit reaches the
 * broker late, its answers come back at once). With a latency each direction forwards at most one
 * chunk of {@value #CHUNK} bytes per delay, so delayed chunks queue up behind each other. {@link
 * #holdToTarget()} keeps every chunk toward the target in the proxy, read from the client but not
 * forwarded, until {@link #releaseToTarget()}: bytes that are provably on their way, whatever
 * becomes of their sender meanwhile; {@link #releaseBytesToTarget()} lets them go but still keeps a
 * close from the target, as when the client's host died and sent no FIN. A side's close reaches the
 * other side as a FIN after its last byte, as it would without the proxy; a connection closes once
 * both directions have ended. Connections made after a cut are forwarded, so clients can recover.
 * Shipped in gateway-core's test-jar for every module's fault tests.
 */
public final class TcpProxy implements AutoCloseable {

  /** Queued after a direction's last chunk: its sender closed, or the connection failed. */
  private static final byte[] END = new byte[0];

  /** The most a direction reads at once, and forwards at once while it has a latency. */
  private static final int CHUNK = 16 * 1024;

  private final ServerSocket server;
  private final InetSocketAddress target;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final AtomicInteger connections = new AtomicInteger();
  private volatile boolean frozen;
  private volatile Duration toTarget = Duration.ZERO;
  private volatile Duration fromTarget = Duration.ZERO;
  private volatile CountDownLatch toTargetReleased = new CountDownLatch(0);
  private volatile CountDownLatch toTargetCloseReleased = new CountDownLatch(0);
  private final AtomicLong readToTarget = new AtomicLong();
  private final AtomicLong writtenToTarget = new AtomicLong();
  private volatile long lastReadToTarget = System.nanoTime();

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

  /**
   * From now on no chunk toward the target is forwarded, one already read and being delayed
   * included: the proxy still reads them from the client (which sees its writes succeed), and keeps
   * them, in order, until {@link #releaseToTarget()}. A chunk whose latency ran out while held goes
   * at once on release; the chunks read after it wait their latency each, as before. A client's
   * close is kept too: the target gets its FIN only on release.
   */
  public void holdToTarget() {
    if (toTargetReleased.getCount() == 0) {
      toTargetReleased = new CountDownLatch(1);
    }
    if (toTargetCloseReleased.getCount() == 0) {
      toTargetCloseReleased = new CountDownLatch(1);
    }
  }

  /** Forwards what {@link #holdToTarget()} kept, a client's close included, then as before. */
  public void releaseToTarget() {
    toTargetReleased.countDown();
    toTargetCloseReleased.countDown();
  }

  /**
   * Forwards the bytes {@link #holdToTarget()} kept and every chunk after them, but keeps a
   * client's close from the target until {@link #releaseToTarget()}: the target reads all a dead
   * client wrote, and sees its connection end only later, as when the client's host died without a
   * FIN (the target is then not racing the bytes' processing against the connection's end).
   */
  public void releaseBytesToTarget() {
    toTargetReleased.countDown();
  }

  /** Bytes read from clients toward the target and not written to it yet (held or delayed). */
  public long inFlightToTarget() {
    return readToTarget.get() - writtenToTarget.get();
  }

  /** How long ago the proxy last read a chunk from a client (the client's last write, at most). */
  public Duration sinceLastReadToTarget() {
    return Duration.ofNanos(System.nanoTime() - lastReadToTarget);
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
        AtomicInteger open = new AtomicInteger(2);
        forward(client, upstream, true, open);
        forward(upstream, client, false, open);
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
   * Forwards one direction: a reader takes every chunk from {@code from} as it comes, so a sender
   * never waits on the proxy; a writer passes them on in order to {@code to}, late by the
   * direction's latency, kept while held (toward the target), dropped while frozen. {@code open}
   * counts the connection's directions still forwarding; the last to end closes both sockets.
   */
  private void forward(Socket from, Socket to, boolean towardTarget, AtomicInteger open) {
    BlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
    Thread.ofVirtual().start(() -> read(from, chunks, towardTarget));
    Thread.ofVirtual().start(() -> write(chunks, from, to, towardTarget, open));
  }

  /** Queues every chunk read from {@code from}, then {@link #END} when it closes or fails. */
  private void read(Socket from, BlockingQueue<byte[]> chunks, boolean towardTarget) {
    byte[] buffer = new byte[CHUNK];
    try {
      InputStream in = from.getInputStream();
      int n;
      while ((n = in.read(buffer)) >= 0) {
        if (towardTarget) {
          readToTarget.addAndGet(n);
          lastReadToTarget = System.nanoTime();
        }
        chunks.add(Arrays.copyOf(buffer, n));
      }
    } catch (IOException e) {
      // the other side closed, or cutAll() dropped the connection
    } finally {
      chunks.add(END);
    }
  }

  /**
   * Writes the queued chunks to {@code to}, each after the latency: what was read meanwhile goes
   * with it, up to {@link #CHUNK} bytes while there is a latency (so a slow peer stays as slow as
   * when the proxy read one chunk at a time), all of it when there is none. At {@link #END} the
   * sender's close is passed on as it reaches a peer, a FIN after the last byte ({@code
   * to.shutdownOutput()}): never a close with bytes unread, whose reset could make the peer drop
   * bytes it has received and not read yet. When {@code to} fails, it is closed and the rest of
   * this direction dropped: the other direction then ends in turn.
   */
  private void write(
      BlockingQueue<byte[]> chunks,
      Socket from,
      Socket to,
      boolean towardTarget,
      AtomicInteger open) {
    List<byte[]> taken = new ArrayList<>();
    boolean ended = false;
    try {
      OutputStream out = to.getOutputStream();
      while (!ended) {
        taken.clear();
        taken.add(chunks.take());
        Duration wait = towardTarget ? toTarget : fromTarget;
        int size = taken.getFirst().length;
        for (byte[] next = chunks.peek();
            next != null && (wait.isZero() || size + next.length <= CHUNK);
            next = chunks.peek()) {
          taken.add(chunks.poll());
          size += next.length;
        }
        // END is the last thing a reader queues, so it can only be the last taken.
        ended = taken.getLast() == END;
        if (!wait.isZero() && taken.getFirst() != END) {
          LockSupport.parkNanos(wait.toNanos());
        }
        if (towardTarget) {
          toTargetReleased.await();
        }
        for (byte[] chunk : taken) {
          if (chunk != END && !frozen) {
            out.write(chunk);
          }
          if (towardTarget) {
            writtenToTarget.addAndGet(chunk.length);
          }
        }
        out.flush();
      }
      if (towardTarget) {
        toTargetCloseReleased.await();
      }
      to.shutdownOutput();
    } catch (IOException e) {
      closeQuietly(to);
      if (!ended) {
        drainToEnd(chunks);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closeQuietly(from);
      closeQuietly(to);
    } finally {
      if (open.decrementAndGet() == 0) {
        closeQuietly(from);
        closeQuietly(to);
        sockets.remove(from);
        sockets.remove(to);
      }
    }
  }

  /** Drops what a failed direction still gets, up to its {@link #END}. */
  private static void drainToEnd(BlockingQueue<byte[]> chunks) {
    try {
      while (chunks.take() != END) {
        // the peer is gone: nothing to write to
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
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
    releaseToTarget();
    server.close();
    cutAll();
  }
}
