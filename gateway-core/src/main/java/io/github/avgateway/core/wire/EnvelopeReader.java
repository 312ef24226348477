package io.github.avgateway.core.wire;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.wire.HistoryMessages.Problem;
import io.github.avgateway.core.wire.HistoryMessages.Unreadable;
import java.util.List;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectReader;

/**
 * Reads a history message's envelope, {@code {"schema":N,"documents":[…]}}, in one encoding: checks
 * the schema before it binds a document, so a message of another schema is reported as such (not as
 * malformed) whatever its documents look like. The documents are bound by Jackson straight from the
 * parser; only when they come before the schema (no gateway writes them so) are they read into a
 * tree first. Thread-safe.
 */
final class EnvelopeReader {

  private static final TypeReference<List<MessageInfo>> DOCUMENTS = new TypeReference<>() {};

  private final ObjectMapper mapper;
  private final ObjectReader documents;
  private final int schema;

  EnvelopeReader(ObjectMapper mapper, int schema) {
    this.mapper = mapper;
    this.documents = mapper.readerFor(DOCUMENTS);
    this.schema = schema;
  }

  JsonParser parser(byte[] body) {
    return mapper.createParser(body);
  }

  /** What this reader expects, for a malformed body's detail. */
  String describe() {
    return "not a schema "
        + schema
        + " message ("
        + mapper.tokenStreamFactory().getFormatName()
        + ")";
  }

  /** The message at {@code parser}; throws {@link Unreadable} or Jackson's exceptions. */
  HistoryMessage read(JsonParser parser) {
    if (parser.nextToken() != JsonToken.START_OBJECT) {
      throw malformed("not an object");
    }
    boolean schemaSeen = false;
    List<MessageInfo> read = null;
    JsonNode early = null;
    for (String name = parser.nextName(); name != null; name = parser.nextName()) {
      JsonToken value = parser.nextToken();
      if (name.equals("schema")) {
        checkSchema(parser, value);
        schemaSeen = true;
      } else if (name.equals("documents") && schemaSeen) {
        read = documents.readValue(parser);
      } else if (name.equals("documents")) {
        early = mapper.readTree(parser);
      } else {
        parser.skipChildren();
      }
    }
    if (!schemaSeen) {
      throw malformed("no numeric \"schema\" field");
    }
    if (early != null) {
      read = documents.readValue(early);
    }
    if (read == null) {
      throw malformed("no \"documents\" array");
    }
    return new HistoryMessage(schema, read);
  }

  private void checkSchema(JsonParser parser, JsonToken value) {
    if (value != JsonToken.VALUE_NUMBER_INT) {
      throw malformed("no numeric \"schema\" field");
    }
    int found = parser.getIntValue();
    if (found != schema) {
      throw new Unreadable(
          Problem.UNKNOWN_SCHEMA,
          "schema "
              + found
              + " in "
              + mapper.tokenStreamFactory().getFormatName()
              + "; this indexer reads schema "
              + HistoryMessages.JSON_SCHEMA
              + " (JSON) and "
              + HistoryMessages.SCHEMA
              + " (Smile)");
    }
  }

  private Unreadable malformed(String why) {
    return new Unreadable(Problem.MALFORMED, describe() + ": " + why);
  }
}
