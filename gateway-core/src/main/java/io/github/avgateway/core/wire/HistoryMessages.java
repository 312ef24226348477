package io.github.avgateway.core.wire;

import io.github.avgateway.core.model.MessageInfo;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.smile.SmileFactory;
import tools.jackson.dataformat.smile.SmileMapper;
import tools.jackson.dataformat.smile.SmileWriteFeature;

/**
 * The history stream's body (docs/history-stream.md): a {@link HistoryMessage} written and read by
 * Jackson's data binding, so a field added to {@link MessageInfo} travels without a change here.
 *
 * <ul>
 *   <li>Schema 2, what {@link #encode} writes: Smile (Jackson's binary JSON), content type {@value
 *       #CONTENT_TYPE}. Field names and short repeated values (transport, verdict, engine, gateway,
 *       disposition) are written once per message and referenced after, so a document of a large
 *       message costs a fraction of its JSON form.
 *   <li>Schema 1, what gateways before schema 2 wrote: UTF-8 JSON, content type {@value
 *       #JSON_CONTENT_TYPE}. Still read, so messages left on the queue by an older gateway are
 *       indexed after an upgrade.
 * </ul>
 *
 * Decoding tells the two apart by Smile's header, is strict about what makes a document (its
 * required fields, the schema that goes with the encoding) and lenient about fields it does not
 * know, so an indexer reads what a newer gateway of the same schema writes. Thread-safe.
 */
public final class HistoryMessages {

  /** The schema this gateway writes: Smile. */
  public static final int SCHEMA = 2;

  /** The schema of the JSON messages older gateways wrote; still read. */
  public static final int JSON_SCHEMA = 1;

  /** The content type of what {@link #encode} writes. */
  public static final String CONTENT_TYPE = "application/vnd.avgateway.history+smile";

  /** The content type of a schema-1 (JSON) history message. */
  public static final String JSON_CONTENT_TYPE = "application/vnd.avgateway.history+json";

  private static final ObjectMapper SMILE =
      SmileMapper.builder(
              SmileFactory.builder().enable(SmileWriteFeature.CHECK_SHARED_STRING_VALUES).build())
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          // The envelope reader binds the documents array in the middle of the message.
          .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private static final ObjectMapper JSON =
      JsonMapper.builder()
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private static final EnvelopeReader SMILE_READER = new EnvelopeReader(SMILE, SCHEMA);

  private static final EnvelopeReader JSON_READER = new EnvelopeReader(JSON, JSON_SCHEMA);

  private HistoryMessages() {}

  /** The body of a history message holding {@code documents}, in the current schema. */
  public static byte[] encode(List<MessageInfo> documents) {
    return SMILE.writeValueAsBytes(HistoryMessage.of(documents));
  }

  /** The body of {@code documents} as a schema-1 (JSON) message, as older gateways wrote it. */
  public static byte[] encodeJson(List<MessageInfo> documents) {
    return JSON.writeValueAsBytes(new HistoryMessage(JSON_SCHEMA, documents));
  }

  /**
   * Reads a history message of either schema.
   *
   * @throws Unreadable when the body is not a history message of a known schema; its {@link
   *     Unreadable#reason()} says which way, for the dead-letter
   */
  public static HistoryMessage decode(byte[] body) {
    EnvelopeReader reader = isSmile(body) ? SMILE_READER : JSON_READER;
    try (JsonParser parser = reader.parser(body)) {
      return reader.read(parser);
    } catch (JacksonException | IllegalArgumentException | NullPointerException e) {
      String detail = e instanceof JacksonException je ? je.getOriginalMessage() : e.toString();
      throw new Unreadable(Problem.MALFORMED, reader.describe() + ": " + detail);
    }
  }

  /** Whether {@code body} starts with Smile's header, {@code :)\n}. */
  static boolean isSmile(byte[] body) {
    return body.length >= 3 && body[0] == ':' && body[1] == ')' && body[2] == '\n';
  }

  /** Why a body is not a readable history message. */
  public enum Problem {
    /** Not JSON or Smile, or not the shape of a history message. */
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
