package io.github.avgateway.jms.support;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A STOMP 1.2 client on a plain socket, as small as the protocol allows: frames are a command line,
 * {@code name:value} header lines, a blank line and a body ended by a NUL byte. Header values are
 * sent escaped as STOMP 1.2 says; a received body is read by its {@code content-length} when it has
 * one, else up to the NUL.
 */
public final class StompClient implements AutoCloseable {

  /** A received frame. */
  public record Frame(String command, Map<String, String> headers, byte[] body) {

    public String header(String name) {
      return headers.get(name);
    }

    public String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final Deque<Frame> early = new ArrayDeque<>();
  private int receipts;

  /** Connects and logs in (no credentials: the embedded broker's security is off). */
  public StompClient(String host, int port, Duration readTimeout) throws IOException {
    socket = new Socket(host, port);
    socket.setSoTimeout((int) readTimeout.toMillis());
    in = new BufferedInputStream(socket.getInputStream());
    out = socket.getOutputStream();
    send("CONNECT", Map.of("accept-version", "1.2", "host", host), null);
    expect("CONNECTED", read());
  }

  /** Subscribes to {@code destination} and returns once the broker confirmed it. */
  public void subscribe(String destination) throws IOException {
    sendWithReceipt(
        "SUBSCRIBE",
        Map.of("id", "sub-" + receipts, "destination", destination, "ack", "auto"),
        null);
  }

  /**
   * Sends {@code body} to {@code destination}; with {@code contentLength} true the frame carries a
   * {@code content-length} header (Artemis: a bytes message), without it none (a text message).
   * Returns once the broker confirmed it.
   */
  public void send(
      String destination, Map<String, String> headers, byte[] body, boolean contentLength)
      throws IOException {
    Map<String, String> all = new LinkedHashMap<>(headers);
    all.put("destination", destination);
    if (contentLength) {
      all.put("content-length", Integer.toString(body.length));
    }
    sendWithReceipt("SEND", all, body);
  }

  /** The next frame from the broker; fails after the read timeout. */
  public Frame receive() throws IOException {
    return early.isEmpty() ? read() : early.poll();
  }

  private Frame read() throws IOException {
    String command;
    do {
      command = line();
    } while (command.isEmpty());
    Map<String, String> headers = new LinkedHashMap<>();
    for (String line = line(); !line.isEmpty(); line = line()) {
      int colon = line.indexOf(':');
      // STOMP 1.2: the first occurrence of a repeated header wins.
      headers.putIfAbsent(unescape(line.substring(0, colon)), unescape(line.substring(colon + 1)));
    }
    String length = headers.get("content-length");
    byte[] body = length != null ? in.readNBytes(Integer.parseInt(length)) : upToNul();
    if (length != null && in.read() != 0) {
      throw new IOException("frame " + command + " not NUL-terminated after its content-length");
    }
    return new Frame(command, headers, body);
  }

  private void sendWithReceipt(String command, Map<String, String> headers, byte[] body)
      throws IOException {
    String receipt = "r-" + receipts++;
    Map<String, String> all = new LinkedHashMap<>(headers);
    all.put("receipt", receipt);
    send(command, all, body);
    Frame answer = read();
    // A MESSAGE may come before the receipt of the frame that caused it: kept for receive().
    for (; "MESSAGE".equals(answer.command()); answer = read()) {
      early.add(answer);
    }
    expect("RECEIPT", answer);
    if (!receipt.equals(answer.header("receipt-id"))) {
      throw new IOException("receipt " + answer.header("receipt-id") + ", expected " + receipt);
    }
  }

  private void send(String command, Map<String, String> headers, byte[] body) throws IOException {
    StringBuilder head = new StringBuilder(command).append('\n');
    headers.forEach(
        (name, value) -> head.append(escape(name)).append(':').append(escape(value)).append('\n'));
    head.append('\n');
    out.write(head.toString().getBytes(StandardCharsets.UTF_8));
    if (body != null) {
      out.write(body);
    }
    out.write(0);
    out.flush();
  }

  private static void expect(String command, Frame frame) throws IOException {
    if (!command.equals(frame.command())) {
      throw new IOException(
          "expected "
              + command
              + ", got "
              + frame.command()
              + " "
              + frame.headers()
              + " "
              + frame.text());
    }
  }

  private String line() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        throw new IOException("connection closed by the broker");
      }
      line.write(b);
    }
    String text = line.toString(StandardCharsets.UTF_8);
    return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
  }

  private byte[] upToNul() throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (int b = in.read(); b != 0; b = in.read()) {
      if (b < 0) {
        throw new IOException("connection closed by the broker");
      }
      body.write(b);
    }
    return body.toByteArray();
  }

  private static String escape(String value) {
    return value
        .replace("\\", "\\\\")
        .replace("\r", "\\r")
        .replace("\n", "\\n")
        .replace(":", "\\c");
  }

  private static String unescape(String value) {
    StringBuilder plain = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\\' && i + 1 < value.length()) {
        char next = value.charAt(++i);
        plain.append(
            switch (next) {
              case 'r' -> '\r';
              case 'n' -> '\n';
              case 'c' -> ':';
              default -> next;
            });
      } else {
        plain.append(c);
      }
    }
    return plain.toString();
  }

  @Override
  public void close() throws IOException {
    try {
      send("DISCONNECT", Map.of(), null);
    } finally {
      socket.close();
    }
  }
}
