package io.github.avgateway.core.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The history indexer's own reader against the Jackson mapper it stands in front of: it reads every
 * body the gateway writes, leaves every other form to the mapper, and never reads a body otherwise
 * than the mapper does, mutated bodies included.
 */
class HistoryJsonReaderTest {

  private static final Charset UTF8 = StandardCharsets.UTF_8;

  private final RandomRecords records = new RandomRecords(42);

  @Test
  void everyBodyTheGatewayWritesIsReadWithoutTheMapper() {
    for (int i = 0; i < 500; i++) {
      HistoryMessage message = records.message();
      byte[] body = HistoryMessages.encode(message);
      assertThat(HistoryJsonReader.read(body)).as("%s", message).isEqualTo(message);
      assertThat(HistoryMessages.decodeWithMapper(body)).isEqualTo(message);
    }
  }

  @Test
  void whitespaceBetweenTokensIsRead() {
    JsonMapper pretty = JsonMapper.builder().build();
    for (int i = 0; i < 50; i++) {
      HistoryMessage message = records.message();
      byte[] body =
          pretty
              .writerWithDefaultPrettyPrinter()
              .writeValueAsBytes(pretty.readTree(HistoryMessages.encode(message)));
      assertThat(new String(body, StandardCharsets.UTF_8)).contains("\n");
      assertThat(HistoryJsonReader.read(body)).isEqualTo(message);
    }
  }

  @Test
  void otherFormsAreLeftToTheMapper() {
    String good = new String(HistoryMessages.encode(List.of(HistoryMessagesTest.REPLIED)), UTF8);
    String filename = "\"filename\":\"eicar.com\"";
    String sizeBytes = "\"sizeBytes\":68";
    String receivedAt = "\"receivedAt\":\"2026-11-25T08:00:00Z\"";
    assertThat(good).contains(filename, sizeBytes, receivedAt, "\"cached\":true");
    assertThat(HistoryJsonReader.read(good.getBytes(UTF8))).isNotNull();
    for (String body :
        List.of(
            good.replace("{\"schema\":1,", "{\"schema\":1,\"producer\":\"newer\","),
            good.replace("\"id\":", "\"shard\":1,\"id\":"),
            good.replace(filename + ",", ""),
            good.replace(filename, filename + "," + filename),
            good.replace(sizeBytes, "\"sizeBytes\":\"68\""),
            good.replace(sizeBytes, sizeBytes + ".0"),
            good.replace(sizeBytes, sizeBytes + "e0"),
            good.replace(filename, "\"filename\":\"\\uD83D\\uDE00\""),
            good.replace(receivedAt, "\"receivedAt\":\"2026-11-25T08:00:00+00:00\""),
            good.replace(receivedAt, "\"receivedAt\":\"2026-11-25T08:00:00\""),
            good.replace(receivedAt, "\"receivedAt\":1764057600"),
            good.replace("\"cached\":true", "\"cached\":\"true\""),
            good.replace("{\"schema\":1,", "{\"schema\":2,"),
            good + "x")) {
      assertThat(HistoryJsonReader.read(body.getBytes(UTF8))).as(body).isNull();
    }
    byte[] invalidUtf8 = good.replace(filename, "\"filename\":\"\u00e9icar.com\"").getBytes(UTF8);
    invalidUtf8[indexOf(invalidUtf8, (byte) 0xC3) + 1] = (byte) 0x28;
    assertThat(HistoryJsonReader.read(invalidUtf8)).isNull();
  }

  /**
   * Bodies with a byte or two replaced, removed or repeated: whatever the mapper makes of one (a
   * message, or a reason to dead-letter it), {@link HistoryMessages#decode} makes the same.
   */
  @Test
  void mutatedBodiesAreDecodedAsTheMapperDecodesThem() {
    Random random = new Random(7);
    byte[] interesting = "\"\\,:{}[] 09-.eEnZT:u\u00e9".getBytes(UTF8);
    int readByTheReader = 0;
    for (int i = 0; i < 4_000; i++) {
      byte[] body = HistoryMessages.encode(records.message());
      for (int m = 1 + random.nextInt(2); m > 0; m--) {
        body = mutate(body, random, interesting);
      }
      if (HistoryJsonReader.read(body) != null) {
        readByTheReader++;
      }
      assertThat(outcome(body, true)).as(new String(body, UTF8)).isEqualTo(outcome(body, false));
    }
    assertThat(readByTheReader).as("mutated bodies the reader read itself").isGreaterThan(200);
  }

  /** Half the time at a digit: numbers and timestamps have the rules a string does not. */
  private static byte[] mutate(byte[] body, Random random, byte[] interesting) {
    int at = random.nextInt(body.length);
    if (random.nextBoolean()) {
      for (int i = 0; i < body.length && (body[at] < '0' || body[at] > '9'); i++) {
        at = (at + 1) % body.length;
      }
    }
    return switch (random.nextInt(3)) {
      case 0 -> {
        byte[] copy = body.clone();
        copy[at] =
            random.nextBoolean()
                ? interesting[random.nextInt(interesting.length)]
                : (byte) random.nextInt(256);
        yield copy;
      }
      case 1 -> {
        byte[] shorter = new byte[body.length - 1];
        System.arraycopy(body, 0, shorter, 0, at);
        System.arraycopy(body, at + 1, shorter, at, body.length - at - 1);
        yield shorter;
      }
      default -> {
        byte[] longer = Arrays.copyOf(body, body.length + 1);
        System.arraycopy(body, at, longer, at + 1, body.length - at);
        yield longer;
      }
    };
  }

  /** The message, or the kind of failure and its reason. */
  private static Object outcome(byte[] body, boolean viaDecode) {
    try {
      return viaDecode ? HistoryMessages.decode(body) : HistoryMessages.decodeWithMapper(body);
    } catch (HistoryMessages.Unreadable e) {
      return "unreadable: " + e.reason();
    } catch (RuntimeException e) {
      return e.getClass().getName();
    }
  }

  private static int indexOf(byte[] bytes, byte b) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    throw new AssertionError("no byte " + b);
  }
}
