package io.github.avgateway.core.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TcpProxyTest {

  private static final Duration BOUND = Duration.ofSeconds(10);

  @Test
  void forwardsBothWaysInOrder() throws IOException {
    byte[] request = bytes(100_000, 1);
    byte[] answer = bytes(70_000, 2);
    try (Carried c = Carried.open()) {
      c.client.getOutputStream().write(request);
      assertThat(c.server.getInputStream().readNBytes(request.length)).isEqualTo(request);
      c.server.getOutputStream().write(answer);
      assertThat(c.client.getInputStream().readNBytes(answer.length)).isEqualTo(answer);
      awaitNothingInFlight(c.proxy);
    }
  }

  /** The target's close reaches the client as the end of the stream, after its last bytes. */
  @Test
  void aCloseArrivesAfterTheLastBytes() throws IOException {
    byte[] last = bytes(50_000, 3);
    try (Carried c = Carried.open()) {
      c.server.getOutputStream().write(last);
      c.server.close();
      assertThat(c.client.getInputStream().readAllBytes()).isEqualTo(last);
    }
  }

  /**
   * What a client wrote while held reaches the target on release, in order and whole, though the
   * client was gone by then: torn down with a reset, as the kernel does for a killed process with
   * unread bytes. (A reset also discards what the client's kernel had not sent yet, so the client
   * goes only once the proxy has read everything, as the bytes of a commit on the wire have left.)
   */
  @Test
  void heldBytesReachTheTargetAfterTheirSenderIsGone() throws IOException {
    byte[] before = bytes(5_000, 4);
    byte[] held = bytes(200_000, 5);
    try (Carried c = Carried.open()) {
      OutputStream toProxy = c.client.getOutputStream();
      InputStream fromProxy = c.server.getInputStream();
      toProxy.write(before);
      assertThat(fromProxy.readNBytes(before.length)).isEqualTo(before);

      c.proxy.holdToTarget();
      toProxy.write(held);
      await("every held byte read from the client, none forwarded")
          .atMost(BOUND)
          .during(Duration.ofMillis(300))
          .until(() -> c.proxy.inFlightToTarget() == held.length);
      assertThat(fromProxy.available()).as("bytes forwarded while held").isZero();
      c.client.setSoLinger(true, 0);
      c.client.close();

      c.proxy.releaseToTarget();
      assertThat(fromProxy.readAllBytes()).as("after release, up to the close").isEqualTo(held);
      awaitNothingInFlight(c.proxy);
    }
  }

  /**
   * Released bytes go on while the close is still held: the target reads all of them and sees no
   * end of stream until the hold is released in full.
   */
  @Test
  void aHeldCloseReachesTheTargetOnlyOnFullRelease() throws IOException {
    byte[] held = bytes(40_000, 8);
    try (Carried c = Carried.open()) {
      InputStream fromProxy = c.server.getInputStream();
      c.proxy.holdToTarget();
      c.client.getOutputStream().write(held);
      c.client.close();

      c.proxy.releaseBytesToTarget();
      assertThat(fromProxy.readNBytes(held.length)).isEqualTo(held);
      awaitNothingInFlight(c.proxy);
      c.server.setSoTimeout(300);
      assertThatThrownBy(fromProxy::read)
          .as("no end of stream while the close is held")
          .isInstanceOf(SocketTimeoutException.class);

      c.proxy.releaseToTarget();
      c.server.setSoTimeout((int) BOUND.toMillis());
      assertThat(fromProxy.read()).as("the end of stream, after release").isEqualTo(-1);
    }
  }

  @Test
  void sinceLastReadToTargetCountsFromTheClientsLastWrite() throws IOException {
    try (Carried c = Carried.open()) {
      c.client.getOutputStream().write(bytes(10, 6));
      c.server.getInputStream().readNBytes(10);
      Duration afterWrite = c.proxy.sinceLastReadToTarget();
      await("time passes without a write")
          .atMost(BOUND)
          .until(() -> c.proxy.sinceLastReadToTarget().compareTo(afterWrite.plusMillis(200)) > 0);
      c.client.getOutputStream().write(bytes(10, 7));
      c.server.getInputStream().readNBytes(10);
      assertThat(c.proxy.sinceLastReadToTarget()).isLessThan(afterWrite.plusMillis(200));
    }
  }

  /** The proxy counts a chunk written once its write returned, a moment after the peer has it. */
  private static void awaitNothingInFlight(TcpProxy proxy) {
    await("nothing in flight").atMost(BOUND).until(() -> proxy.inFlightToTarget() == 0);
  }

  private static byte[] bytes(int length, long seed) {
    byte[] bytes = new byte[length];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  /** A target on 127.0.0.1, a proxy to it, a client connected through it, the target's side. */
  private record Carried(ServerSocket target, TcpProxy proxy, Socket client, Socket server)
      implements AutoCloseable {

    static Carried open() throws IOException {
      ServerSocket target = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
      TcpProxy proxy = TcpProxy.to(target.getLocalPort());
      Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
      return new Carried(target, proxy, client, target.accept());
    }

    @Override
    public void close() throws IOException {
      try (target;
          proxy;
          client;
          server) {
        // closes all four
      }
    }
  }
}
