package io.github.avgateway.core.wire;

import io.github.avgateway.core.model.MessageInfo;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The history stream's body: a {@link HistoryMessage} as UTF-8 JSON, {@code
 * {"schema":1,"documents":[{…MessageInfo…}]}} (docs/history-stream.md), timestamps as ISO-8601
 * strings. Decoding is strict about what makes a document (its required fields, a known schema) and
 * lenient about fields it does not know, so that an indexer reads what a newer gateway of the same
 * schema writes. Thread-safe.
 */
public final class HistoryMessages {

  /** The schema this gateway writes and reads. */
  public static final int SCHEMA = 1;

  /** The content type of a history message. */
  public static final String CONTENT_TYPE = "application/vnd.avgateway.history+json";

  private static final JsonMapper MAPPER =
      JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

  private HistoryMessages() {}

  /**
   * The body of {@code message}: written by {@link JsonWriter}, byte for byte what the Jackson
   * mapper writes (checked by {@code HistoryMessagesTest}), and by the mapper itself for a string
   * no UTF-8 can hold.
   */
  public static byte[] encode(HistoryMessage message) {
    return JsonWriter.write(
        256 + 768 * message.documents().size(),
        out -> {
          out.beginObject().field("schema", message.schema()).name("documents").beginArray();
          message.documents().forEach(document -> write(out, document));
          out.endArray().endObject();
        },
        () -> jackson(message));
  }

  /** The body as the Jackson mapper writes it: the reference for {@link #encode}. */
  static byte[] jackson(HistoryMessage message) {
    return MAPPER.writeValueAsBytes(message);
  }

  private static void write(JsonWriter out, MessageInfo d) {
    out.beginObject()
        .field("id", d.id())
        .field("requestId", d.requestId())
        .field("correlationId", d.correlationId())
        .field("transport", d.transport())
        .field("clientId", d.clientId())
        .field("filename", d.filename())
        .field("contentType", d.contentType())
        .field("sizeBytes", d.sizeBytes())
        .field("sha256", d.sha256())
        .field("verdict", d.verdict())
        .field("signatures", d.signatures())
        .field("reason", d.reason())
        .field("engine", d.engine())
        .field("signatureVersion", d.signatureVersion())
        .field("cached", d.cached())
        .field("receivedAt", d.receivedAt())
        .field("scannedAt", d.scannedAt())
        .field("scanMillis", d.scanMillis())
        .field("totalMillis", d.totalMillis())
        .field("gateway", d.gateway())
        .field("redelivered", d.redelivered())
        .field("disposition", d.disposition())
        .field("deadLetterReason", d.deadLetterReason())
        .field("traceId", d.traceId())
        .endObject();
  }

  /** The body of a history message holding {@code documents}, in the current schema. */
  public static byte[] encode(List<MessageInfo> documents) {
    return encode(HistoryMessage.of(documents));
  }

  /**
   * Reads a history message: the form the gateway writes by {@link HistoryJsonReader}, any other by
   * the Jackson mapper.
   *
   * @throws Unreadable when the body is not a history message of a known schema; its {@link
   *     Unreadable#reason()} says which way, for the dead-letter
   */
  public static HistoryMessage decode(byte[] body) {
    HistoryMessage message = HistoryJsonReader.read(body);
    return message != null ? message : decodeWithMapper(body);
  }

  /** Reads a history message with the Jackson mapper: the reference for {@link #decode}. */
  static HistoryMessage decodeWithMapper(byte[] body) {
    JsonNode tree;
    try {
      tree = MAPPER.readTree(body);
    } catch (JacksonException e) {
      throw new Unreadable(Problem.MALFORMED, "not JSON: " + e.getOriginalMessage());
    }
    if (tree == null || !tree.isObject() || !tree.path("schema").isInt()) {
      throw new Unreadable(Problem.MALFORMED, "no numeric \"schema\" field");
    }
    int schema = tree.get("schema").intValue();
    if (schema != SCHEMA) {
      throw new Unreadable(
          Problem.UNKNOWN_SCHEMA, "schema " + schema + "; this indexer reads schema " + SCHEMA);
    }
    try {
      return MAPPER.treeToValue(tree, HistoryMessage.class);
    } catch (JacksonException | IllegalArgumentException | NullPointerException e) {
      throw new Unreadable(
          Problem.MALFORMED, "not a schema " + SCHEMA + " message: " + e.getMessage());
    }
  }

  /** Why a body is not a readable history message. */
  public enum Problem {
    /** Not JSON, or not the shape of a history message. */
    MALFORMED,
    /** A history message of a schema this indexer does not read. */
    UNKNOWN_SCHEMA
  }

  /** A body that is not a readable history message; never worth retrying. */
  public static final class Unreadable extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Problem problem;

    Unreadable(Problem problem, String detail) {
      super(detail);
      this.problem = problem;
    }

    /** Which way it is unreadable. */
    public Problem problem() {
      return problem;
    }

    /** The dead-letter reason: {@code HISTORY_MALFORMED} or {@code HISTORY_UNKNOWN_SCHEMA}. */
    public String reason() {
      return "HISTORY_" + problem.name();
    }
  }
}
