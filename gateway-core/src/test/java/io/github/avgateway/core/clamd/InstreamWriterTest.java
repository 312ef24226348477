package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class InstreamWriterTest {

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  private static byte[] length(int n) {
    return new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n};
  }

  private static byte[] write(InstreamWriter writer, byte[] payload) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    writer.write(new ByteArrayInputStream(payload), out);
    return out.toByteArray();
  }

  @Test
  void anEmptyPayloadIsTheCommandAndTheTerminator() throws Exception {
    byte[] wire = write(new InstreamWriter(4, 100), new byte[0]);
    assertThat(wire).isEqualTo(concat(bytes("zINSTREAM\0"), new byte[] {0, 0, 0, 0}));
  }

  @Test
  void chunksCarryBigEndianLengthsAndEndWithZero() throws Exception {
    byte[] wire = write(new InstreamWriter(4, 100), bytes("abcdefghij"));
    assertThat(wire)
        .isEqualTo(
            concat(
                bytes("zINSTREAM\0"),
                length(4),
                bytes("abcd"),
                length(4),
                bytes("efgh"),
                length(2),
                bytes("ij"),
                length(0)));
  }

  @Test
  void aPayloadOfExactlyOneChunkIsOneFrame() throws Exception {
    byte[] wire = write(new InstreamWriter(3, 100), bytes("abc"));
    assertThat(wire).isEqualTo(concat(bytes("zINSTREAM\0"), length(3), bytes("abc"), length(0)));
  }

  @Test
  void largeLengthsUseAllFourBytes() throws Exception {
    int size = 0x01_02_03;
    byte[] wire = write(new InstreamWriter(size, size), new byte[size]);
    assertThat(wire).startsWith(concat(bytes("zINSTREAM\0"), new byte[] {0, 1, 2, 3}));
    assertThat(wire).hasSize(10 + 4 + size + 4);
  }

  @Test
  void shortReadsFromTheSourceStillFillWholeChunks() throws Exception {
    InputStream trickle =
        new ByteArrayInputStream(bytes("abcdefgh")) {
          @Override
          public synchronized int read(byte[] b, int off, int len) {
            return super.read(b, off, Math.min(len, 1));
          }
        };
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new InstreamWriter(4, 100).write(trickle, out);
    assertThat(out.toByteArray())
        .isEqualTo(
            concat(
                bytes("zINSTREAM\0"),
                length(4),
                bytes("abcd"),
                length(4),
                bytes("efgh"),
                length(0)));
  }

  @Test
  void aPayloadAtTheLimitIsSentWhole() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    InstreamWriter.Result result =
        new InstreamWriter(4, 8).write(new ByteArrayInputStream(bytes("abcdefgh")), out);
    assertThat(result).isEqualTo(new InstreamWriter.Result.Sent(8));
    assertThat(out.toByteArray()).endsWith(length(0));
  }

  @Test
  void aPayloadOverTheLimitStopsBeforeTheChunkThatPassesItAndSendsNoTerminator() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    InstreamWriter.Result result =
        new InstreamWriter(4, 7).write(new ByteArrayInputStream(bytes("abcdefgh")), out);
    assertThat(result).isEqualTo(new InstreamWriter.Result.TooLarge(8, 4));
    assertThat(out.toByteArray()).isEqualTo(concat(bytes("zINSTREAM\0"), length(4), bytes("abcd")));
  }

  @Test
  void aGibibyteStreamsThroughOneChunkBufferWithoutEverBeingHeld() throws Exception {
    long size = 1L << 30;
    int chunk = 64 * 1024;
    CountingSink sink = new CountingSink();
    InstreamWriter.Result result =
        new InstreamWriter(chunk, size).write(new ZeroStream(size), sink);
    assertThat(result).isEqualTo(new InstreamWriter.Result.Sent(size));
    assertThat(sink.bytes).isEqualTo(10 + size + 4 * (size / chunk) + 4);
    assertThat(sink.largestWrite)
        .as("one frame per write, the first with the command")
        .isEqualTo(10 + 4 + chunk);
    assertThat(sink.writes)
        .as("a frame per chunk, then the terminator")
        .isEqualTo(size / chunk + 1);
  }

  @Test
  void aPayloadSmallerThanAChunkLeavesInOneWriteWithCommandAndTerminator() throws Exception {
    CountingSink sink = new CountingSink();
    InstreamWriter.Result result =
        new InstreamWriter(64 * 1024, 100_000).write(new ZeroStream(1024), sink);
    assertThat(result).isEqualTo(new InstreamWriter.Result.Sent(1024));
    assertThat(sink.writes).isEqualTo(1);
    assertThat(sink.bytes).isEqualTo(10 + 4 + 1024 + 4);
  }

  @Test
  void aLastChunkThatIsNotFullCarriesTheTerminator() throws Exception {
    CountingSink sink = new CountingSink();
    new InstreamWriter(4, 100).write(new ByteArrayInputStream(bytes("abcdefghij")), sink);
    assertThat(sink.writes).as("abcd, efgh, then ij with the terminator").isEqualTo(3);
  }

  @Test
  void oneFrameBufferServesScanAfterScan() throws Exception {
    InstreamWriter writer = new InstreamWriter(4, 100);
    byte[] frame = writer.newFrameBuffer();
    ByteArrayOutputStream first = new ByteArrayOutputStream();
    ByteArrayOutputStream second = new ByteArrayOutputStream();
    writer.write(new ByteArrayInputStream(bytes("abcdefghij")), first, frame);
    writer.write(new ByteArrayInputStream(bytes("xy")), second, frame);
    assertThat(second.toByteArray())
        .isEqualTo(concat(bytes("zINSTREAM\0"), length(2), bytes("xy"), length(0)));
  }

  @Test
  void aFrameBufferTooSmallForOneFrameIsRefused() {
    InstreamWriter writer = new InstreamWriter(4, 100);
    assertThatThrownBy(() ->
            writer.write(
                new ByteArrayInputStream(bytes("ab")),
                new ByteArrayOutputStream(),
                new byte[InstreamWriter.frameBufferSize(4) - 1]))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aPayloadThatCannotBeReadIsAPayloadFailure() {
    InputStream broken =
        new InputStream() {
          @Override
          public int read() throws IOException {
            throw new IOException("disk gone");
          }
        };
    assertThatThrownBy(() -> new InstreamWriter(4, 100).write(broken, new ByteArrayOutputStream()))
        .isInstanceOf(PayloadException.class)
        .hasMessageContaining("disk gone");
  }

  /** Counts what is written and the largest single write. */
  private static final class CountingSink extends OutputStream {
    long bytes;
    int largestWrite;
    int writes;

    @Override
    public void write(int b) {
      bytes++;
      writes++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      bytes += len;
      writes++;
      largestWrite = Math.max(largestWrite, len);
    }
  }

  /** {@code size} zero bytes, generated on the fly. */
  private static final class ZeroStream extends InputStream {
    private long remaining;

    ZeroStream(long size) {
      remaining = size;
    }

    @Override
    public int read() {
      if (remaining == 0) {
        return -1;
      }
      remaining--;
      return 0;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (remaining == 0) {
        return -1;
      }
      int n = (int) Math.min(len, remaining);
      java.util.Arrays.fill(b, off, off + n, (byte) 0);
      remaining -= n;
      return n;
    }
  }
}
