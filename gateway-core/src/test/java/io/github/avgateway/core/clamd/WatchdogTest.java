package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class WatchdogTest {

  @Test
  void aWriteThePeerNeverTakesIsCutAfterItsDeadline() throws Exception {
    try (Watchdog watchdog = new Watchdog();
        ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Socket socket = new Socket(server.getInetAddress(), server.getLocalPort());
        Socket deaf = server.accept()) {
      Duration stall = Duration.ofMillis(300);
      OutputStream out = new GuardedOutputStream(socket, watchdog, stall);
      long started = System.nanoTime();

      // More than both socket buffers hold: the write blocks until the watchdog closes the socket.
      assertThatThrownBy(() -> out.write(new byte[64 * 1024 * 1024]))
          .isInstanceOf(SocketTimeoutException.class)
          .hasMessageContaining("took no data for 300ms");

      Duration took = Duration.ofNanos(System.nanoTime() - started);
      assertThat(took).isGreaterThanOrEqualTo(stall);
      assertThat(socket.isClosed()).isTrue();
      assertThat(deaf.isClosed()).as("the peer's side is the test's").isFalse();
    }
  }

  @Test
  void writesThatEndInTimeLeaveTheSocketOpen() throws Exception {
    try (Watchdog watchdog = new Watchdog();
        ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Socket socket = new Socket(server.getInetAddress(), server.getLocalPort());
        Socket peer = server.accept()) {
      Thread reader = Thread.ofVirtual().start(() -> drain(peer));
      OutputStream out = new GuardedOutputStream(socket, watchdog, Duration.ofMillis(200));
      for (int i = 0; i < 10_000; i++) {
        out.write(new byte[512]);
      }
      // Well past every deadline those writes had, the socket stays open: a disarmed guard never
      // fires.
      Duration pastEveryDeadline =
          Duration.ofMillis(200).plus(Watchdog.CHECK_EVERY.multipliedBy(3));
      await()
          .during(pastEveryDeadline)
          .atMost(pastEveryDeadline.plusSeconds(5))
          .until(() -> !socket.isClosed());
      out.write(new byte[512]);
      assertThat(socket.isClosed()).isFalse();
      socket.shutdownOutput();
      reader.join(5_000);
    }
  }

  private static void drain(Socket peer) {
    try {
      peer.getInputStream().transferTo(OutputStream.nullOutputStream());
    } catch (Exception e) {
      // The test's socket went away: nothing left to read.
    }
  }
}
