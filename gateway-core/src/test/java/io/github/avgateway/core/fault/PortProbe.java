package io.github.avgateway.core.fault;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;

/** One-shot checks of a port on 127.0.0.1; each gives up after a few seconds. */
final class PortProbe {

  private PortProbe() {}

  /** True when the port answers an AMQP 0-9-1 protocol header with a Connection.Start frame. */
  static boolean speaksAmqp(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      socket.setSoTimeout(2000);
      OutputStream out = socket.getOutputStream();
      out.write(new byte[] {'A', 'M', 'Q', 'P', 0, 0, 9, 1});
      out.flush();
      InputStream in = socket.getInputStream();
      return in.read() == 1;
    } catch (IOException e) {
      return false;
    }
  }

  /** True when the port accepts a TCP connection. */
  static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
