package io.github.avgateway.core.clamd;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns the text of clamd's answer to one INSTREAM (the session id already removed) into a {@link
 * ClamdReply}. Total: every string, null included, maps to a reply, and only the exact text {@code
 * stream: OK} maps to {@link ClamdReply.Clean}. A text may hold several entries separated by
 * newlines or NUL (clamd with AllMatchScan); they are combined so that the least safe wins.
 *
 * <p>clamd words its verdict on a stream as {@code stream: ...}; an error without that prefix comes
 * from its session handling, not from a scan ({@link ClamdReply.Refused}), except the stream size
 * limit ({@link ClamdReply.SizeLimitExceeded}), which is about the payload.
 */
final class ClamdReplyParser {

  private static final String STREAM = "stream: ";
  private static final String FOUND = " FOUND";
  private static final String ERROR = " ERROR";
  private static final String SIZE_LIMIT = "INSTREAM size limit exceeded";

  /** Nearly every reply: answered without splitting it into entries. */
  private static final String CLEAN_REPLY = STREAM + "OK";

  private static final ClamdReply CLEAN = new ClamdReply.Clean();

  private ClamdReplyParser() {}

  private enum Kind {
    OK,
    SIGNATURE,
    ENCRYPTED,
    LIMITS,
    SIZE_LIMIT,
    ERROR,
    REFUSED,
    UNKNOWN
  }

  private record Entry(Kind kind, String name) {}

  /** Parses one reply; never throws. */
  static ClamdReply parse(String reply) {
    if (CLEAN_REPLY.equals(reply)) {
      return CLEAN;
    }
    String words = reply == null ? "" : reply.replace('\0', '\n').strip();
    List<Entry> entries = new ArrayList<>(1);
    for (String line : words.split("\n")) {
      String stripped = line.strip();
      if (!stripped.isEmpty()) {
        entries.add(classify(stripped));
      }
    }
    if (entries.isEmpty()) {
      return new ClamdReply.Failed("clamd sent an empty reply");
    }
    return combine(entries, words);
  }

  private static Entry classify(String line) {
    if (line.startsWith(SIZE_LIMIT) && line.endsWith(ERROR)) {
      return new Entry(Kind.SIZE_LIMIT, line);
    }
    if (line.endsWith(ERROR)) {
      return new Entry(line.startsWith(STREAM) ? Kind.ERROR : Kind.REFUSED, line);
    }
    if (!line.startsWith(STREAM)) {
      return new Entry(Kind.UNKNOWN, line);
    }
    String body = line.substring(STREAM.length());
    if (body.equals("OK")) {
      return new Entry(Kind.OK, body);
    }
    if (!body.endsWith(FOUND)) {
      return new Entry(Kind.UNKNOWN, line);
    }
    return classifySignature(body.substring(0, body.length() - FOUND.length()));
  }

  private static Entry classifySignature(String name) {
    if (name.isEmpty() || name.chars().anyMatch(Character::isWhitespace)) {
      return new Entry(Kind.UNKNOWN, name);
    }
    if (name.startsWith("Heuristics.Limits.Exceeded")) {
      return new Entry(Kind.LIMITS, name);
    }
    if (name.startsWith("Heuristics.Encrypted")) {
      return new Entry(Kind.ENCRYPTED, name);
    }
    return new Entry(Kind.SIGNATURE, name);
  }

  private static ClamdReply combine(List<Entry> entries, String words) {
    if (has(entries, Kind.UNKNOWN)) {
      return new ClamdReply.Failed("clamd sent a reply the gateway does not understand: " + words);
    }
    if (has(entries, Kind.SIGNATURE)) {
      List<String> detections = new ArrayList<>(entries.size());
      for (Entry entry : entries) {
        if (isDetection(entry)) {
          detections.add(entry.name());
        }
      }
      return new ClamdReply.Found(detections);
    }
    if (has(entries, Kind.SIZE_LIMIT)) {
      return new ClamdReply.SizeLimitExceeded("clamd: " + words);
    }
    if (has(entries, Kind.ERROR)) {
      return new ClamdReply.Failed("clamd: " + words);
    }
    if (has(entries, Kind.REFUSED)) {
      return new ClamdReply.Refused("clamd: " + words);
    }
    if (has(entries, Kind.ENCRYPTED)) {
      return new ClamdReply.Encrypted(words);
    }
    if (has(entries, Kind.LIMITS)) {
      return new ClamdReply.LimitsExceeded(words);
    }
    if (entries.size() == 1) {
      return CLEAN;
    }
    return new ClamdReply.Failed("clamd answered OK more than once: " + words);
  }

  private static boolean isDetection(Entry entry) {
    return switch (entry.kind()) {
      case SIGNATURE, ENCRYPTED, LIMITS -> true;
      case OK, SIZE_LIMIT, ERROR, REFUSED, UNKNOWN -> false;
    };
  }

  private static boolean has(List<Entry> entries, Kind kind) {
    for (Entry entry : entries) {
      if (entry.kind() == kind) {
        return true;
      }
    }
    return false;
  }
}
