package io.github.avgateway.core.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TcpProxyTest {

  private static final Duration BOUND = Duration.ofSeconds(10);

  @Test
  void forwardsBothWaysInOrder() throws IOException {
    byte[] request = bytes(100_000, 1);
    byte[] answer = bytes(70_000, 2);
    try (ServerSocket target = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        TcpProxy proxy = TcpProxy.to(target.getLocalPort());
        Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        Socket server = target.accept()) {
      client.getOutputStream().write(request);
      assertThat(server.getInputStream().readNBytes(request.length)).isEqualTo(request);
      server.getOutputStream().write(answer);
      assertThat(client.getInputStream().readNBytes(answer.length)).isEqualTo(answer);
      assertThat(proxy.inFlightToTarget()).isZero();
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
    byte[] before = bytes(5_000, 3);
    byte[] held = bytes(200_000, 4);
    try (ServerSocket target = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        TcpProxy proxy = TcpProxy.to(target.getLocalPort());
        Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        Socket server = target.accept()) {
      OutputStream toProxy = client.getOutputStream();
      InputStream fromProxy = server.getInputStream();
      toProxy.write(before);
      assertThat(fromProxy.readNBytes(before.length)).isEqualTo(before);

      proxy.holdToTarget();
      toProxy.write(held);
      await("every held byte read from the client, none forwarded")
          .atMost(BOUND)
          .during(Duration.ofMillis(300))
          .until(() -> proxy.inFlightToTarget() == held.length);
      assertThat(fromProxy.available()).as("bytes forwarded while held").isZero();
      client.setSoLinger(true, 0);
      client.close();

      proxy.releaseToTarget();
      assertThat(fromProxy.readAllBytes()).as("after release, up to the close").isEqualTo(held);
      assertThat(proxy.inFlightToTarget()).isZero();
    }
  }

  @Test
  void sinceLastReadToTargetCountsFromTheClientsLastWrite() throws IOException {
    try (ServerSocket target = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        TcpProxy proxy = TcpProxy.to(target.getLocalPort());
        Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        Socket server = target.accept()) {
      client.getOutputStream().write(bytes(10, 5));
      server.getInputStream().readNBytes(10);
      Duration afterWrite = proxy.sinceLastReadToTarget();
      await("time passes without a write")
          .atMost(BOUND)
          .until(() -> proxy.sinceLastReadToTarget().compareTo(afterWrite.plusMillis(200)) > 0);
      client.getOutputStream().write(bytes(10, 6));
      server.getInputStream().readNBytes(10);
      assertThat(proxy.sinceLastReadToTarget()).isLessThan(afterWrite.plusMillis(200));
    }
  }

  private static byte[] bytes(int length, long seed) {
    byte[] bytes = new byte[length];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }
}
