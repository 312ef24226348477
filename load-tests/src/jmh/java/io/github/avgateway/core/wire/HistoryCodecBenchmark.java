package io.github.avgateway.core.wire;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.load.HistoryDocuments;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.cbor.CBORMapper;

/**
 * The history message through Jackson in the encodings it was chosen from, on the same documents in
 * one run: JSON (schema 1's form; Jackson's streaming generator and parser under data binding),
 * Smile (schema 2, what the gateways write, {@link HistoryMessages}) and CBOR, each written and
 * read back, for messages of {@code documents} documents ({@link HistoryDocuments}). {@code
 * historyDecodeSchema1Json} is the indexer reading what an older gateway left on the queue.
 *
 * <p>Pitfalls avoided: the records and the bodies to read are built in setup (no UUIDs or clocks
 * timed); every result is returned to JMH; the mappers' first-use introspection falls in warm-up;
 * timestamps carry nanoseconds, as {@code Clock.systemUTC()} gives them; each document has its own
 * ids, file name and hash, so Smile's shared values cover only what real batches repeat; the CBOR
 * and JSON mappers are configured as the codec's (unknown fields ignored).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HistoryCodecBenchmark {

  private static final ObjectMapper CBOR =
      CBORMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

  @Param({"16", "128"})
  public int documents;

  private List<MessageInfo> history;
  private byte[] smileBody;
  private byte[] jsonBody;
  private byte[] cborBody;

  @Setup
  public void setUp() {
    history = HistoryDocuments.batch(documents, Instant.parse("2026-11-25T21:04:05.123456789Z"));
    smileBody = HistoryMessages.encode(history);
    jsonBody = HistoryMessages.encodeJson(history);
    cborBody = CBOR.writeValueAsBytes(HistoryMessage.of(history));
    // The body sizes, once per trial (JMH shows a setup's output in its log).
    System.out.printf(
        "%n# %d documents: Smile %d bytes, JSON %d, CBOR %d%n",
        documents, smileBody.length, jsonBody.length, cborBody.length);
  }

  @Benchmark
  public byte[] historyEncodeSmile() {
    return HistoryMessages.encode(history);
  }

  @Benchmark
  public HistoryMessage historyDecodeSmile() {
    return HistoryMessages.decode(smileBody);
  }

  @Benchmark
  public HistoryMessage historyDecodeSchema1Json() {
    return HistoryMessages.decode(jsonBody);
  }

  @Benchmark
  public byte[] historyEncodeJson() {
    return HistoryMessages.encodeJson(history);
  }

  @Benchmark
  public byte[] historyEncodeCbor() {
    return CBOR.writeValueAsBytes(HistoryMessage.of(history));
  }

  @Benchmark
  public HistoryMessage historyDecodeCbor() {
    return CBOR.readValue(cborBody, HistoryMessage.class);
  }
}
