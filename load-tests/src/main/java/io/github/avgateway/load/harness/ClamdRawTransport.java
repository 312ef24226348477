package io.github.avgateway.load.harness;

import io.github.avgateway.core.model.Verdict;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * clamd alone: {@code zINSTREAM} over {@code sessions} open {@code zIDSESSION} connections, one
 * thread each, no pool logic, no hashing, no retries: the most this client machine gets out of
 * clamd for a payload size. Chunks of 64 KiB, as the gateway's client sends.
 */
final class ClamdRawTransport implements Transport {

  private static final int CHUNK = 64 * 1024;
  private final BlockingQueue<Session> idle;
  private final ExecutorService threads;

  ClamdRawTransport(String host, int port, int sessions) throws IOException {
    idle = new ArrayBlockingQueue<>(sessions);
    for (int i = 0; i < sessions; i++) {
      idle.add(new Session(host, port));
    }
    threads = Executors.newFixedThreadPool(sessions);
  }

  @Override
  public CompletableFuture<Verdict> send(byte[] payload) {
    return CompletableFuture.supplyAsync(
        () -> {
          Session session = idle.remove();
          try {
            return session.scan(payload);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          } finally {
            idle.add(session);
          }
        },
        threads);
  }

  @Override
  public void close() {
    threads.shutdownNow();
    idle.forEach(Session::close);
  }

  /** One IDSESSION connection. */
  private static final class Session {
    private final Socket socket = new Socket();
    private final OutputStream out;
    private final InputStream in;

    Session(String host, int port) throws IOException {
      socket.connect(new InetSocketAddress(host, port), 2000);
      socket.setSoTimeout(60_000);
      socket.setTcpNoDelay(true);
      out = new BufferedOutputStream(socket.getOutputStream(), CHUNK + 8);
      in = socket.getInputStream();
      out.write("zIDSESSION\0".getBytes(StandardCharsets.US_ASCII));
      out.flush();
    }

    Verdict scan(byte[] payload) throws IOException {
      out.write("zINSTREAM\0".getBytes(StandardCharsets.US_ASCII));
      for (int offset = 0; offset < payload.length; offset += CHUNK) {
        int n = Math.min(CHUNK, payload.length - offset);
        out.write(new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n});
        out.write(payload, offset, n);
      }
      out.write(new byte[4]);
      out.flush();
      String reply = readReply();
      if (reply.endsWith("stream: OK")) {
        return Verdict.CLEAN;
      }
      return reply.endsWith("FOUND") ? Verdict.INFECTED : Verdict.ERROR;
    }

    private String readReply() throws IOException {
      ByteArrayOutputStream reply = new ByteArrayOutputStream(64);
      for (int b = in.read(); b > 0; b = in.read()) {
        reply.write(b);
      }
      return reply.toString(StandardCharsets.US_ASCII);
    }

    void close() {
      try {
        out.write("zEND\0".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        socket.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
  }
}
