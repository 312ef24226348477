package io.github.avgateway.solr;

import static io.github.avgateway.solr.HistoryFields.*;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.Verdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;

/**
 * Converts between {@link MessageInfo} and Solr documents (history schema 2). The mapping is
 * lossless for every field (instants keep millisecond precision, the precision Solr stores), and
 * absent values are left out of the document rather than written as empty strings. To keep a
 * document small: scannedAt is written as milliseconds after receivedAt; request id and transport
 * are written only when the id is not {@code transport + ":" + requestId} (they are read back from
 * the id otherwise), booleans only when true, the trace id only when there is one, and the SHA-256,
 * correlation id and trace id get a 32-bit lookup key ({@link HistoryKeys}) instead of a term.
 */
public final class SolrDocumentMapper {

  private SolrDocumentMapper() {}

  /** The Solr document for {@code info}; its id is {@link MessageInfo#id()}. */
  public static SolrInputDocument toDocument(MessageInfo info) {
    SolrInputDocument doc = new SolrInputDocument();
    doc.setField(ID, info.id());
    if (!info.id().equals(MessageInfo.idFor(info.transport(), info.requestId()))) {
      doc.setField(REQUEST_ID, info.requestId());
      doc.setField(TRANSPORT, info.transport());
    }
    if (info.correlationId() != null) {
      doc.setField(CORRELATION_ID, info.correlationId());
      doc.setField(CORRELATION_KEY, HistoryKeys.correlationId(info.correlationId()));
    }
    putIfPresent(doc, CLIENT_ID, info.clientId());
    putIfPresent(doc, FILENAME, info.filename());
    putIfPresent(doc, CONTENT_TYPE, info.contentType());
    doc.setField(SIZE_BYTES, info.sizeBytes());
    if (info.sha256() != null) {
      doc.setField(SHA256, info.sha256());
      doc.setField(SHA256_KEY, HistoryKeys.sha256(info.sha256()));
    }
    doc.setField(VERDICT, info.verdict().name());
    if (!info.signatures().isEmpty()) {
      doc.setField(SIGNATURES, new ArrayList<>(info.signatures()));
    }
    putIfPresent(doc, REASON, info.reason() == null ? null : info.reason().name());
    putIfPresent(doc, ENGINE, info.engine());
    putIfPresent(doc, SIGNATURE_VERSION, info.signatureVersion());
    putIfTrue(doc, CACHED, info.cached());
    doc.setField(RECEIVED_AT, Date.from(info.receivedAt()));
    if (info.scannedAt() != null) {
      doc.setField(SCANNED_AFTER_MILLIS, info.scannedAt().toEpochMilli() - receivedMillis(info));
    }
    doc.setField(SCAN_MILLIS, info.scanMillis());
    doc.setField(TOTAL_MILLIS, info.totalMillis());
    putIfPresent(doc, GATEWAY, info.gateway());
    putIfTrue(doc, REDELIVERED, info.redelivered());
    doc.setField(DISPOSITION, info.disposition().name());
    DeadLetterReason deadLetter = info.deadLetterReason();
    putIfPresent(doc, DEAD_LETTER_REASON, deadLetter == null ? null : deadLetter.name());
    if (info.traceId() != null) {
      doc.setField(TRACE_ID, info.traceId());
      doc.setField(TRACE_KEY, HistoryKeys.traceId(info.traceId()));
    }
    return doc;
  }

  /**
   * The {@link MessageInfo} a stored document was written from. Needs the stored fields and the
   * docValues of {@code receivedAt} and {@code verdict} (Solr returns those with {@code fl=*}).
   */
  public static MessageInfo fromDocument(SolrDocument doc) {
    String id = string(doc, ID);
    Instant received = instant(doc, RECEIVED_AT);
    String transport = string(doc, TRANSPORT);
    String requestId = string(doc, REQUEST_ID);
    if (transport == null) {
      int colon = id.indexOf(':');
      transport = id.substring(0, colon);
      requestId = id.substring(colon + 1);
    }
    return new MessageInfo(
        id,
        requestId,
        string(doc, CORRELATION_ID),
        transport,
        string(doc, CLIENT_ID),
        string(doc, FILENAME),
        string(doc, CONTENT_TYPE),
        number(doc, SIZE_BYTES),
        string(doc, SHA256),
        Verdict.valueOf(string(doc, VERDICT)),
        strings(doc, SIGNATURES),
        enumOrNull(Reason.class, string(doc, REASON)),
        string(doc, ENGINE),
        string(doc, SIGNATURE_VERSION),
        Boolean.TRUE.equals(doc.getFirstValue(CACHED)),
        received,
        scannedAt(doc, received),
        number(doc, SCAN_MILLIS),
        number(doc, TOTAL_MILLIS),
        string(doc, GATEWAY),
        Boolean.TRUE.equals(doc.getFirstValue(REDELIVERED)),
        Disposition.valueOf(string(doc, DISPOSITION)),
        enumOrNull(DeadLetterReason.class, string(doc, DEAD_LETTER_REASON)),
        string(doc, TRACE_ID));
  }

  /** receivedAt as Solr stores it: to the millisecond. */
  private static long receivedMillis(MessageInfo info) {
    return info.receivedAt().toEpochMilli();
  }

  private static Instant scannedAt(SolrDocument doc, Instant received) {
    Object after = doc.getFirstValue(SCANNED_AFTER_MILLIS);
    return after == null ? null : received.plusMillis(((Number) after).longValue());
  }

  private static void putIfTrue(SolrInputDocument doc, String field, boolean value) {
    if (value) {
      doc.setField(field, true);
    }
  }

  private static void putIfPresent(SolrInputDocument doc, String field, Object value) {
    if (value != null) {
      doc.setField(field, value);
    }
  }

  private static String string(SolrDocument doc, String field) {
    Object value = doc.getFirstValue(field);
    return value == null ? null : value.toString();
  }

  private static long number(SolrDocument doc, String field) {
    Object value = doc.getFirstValue(field);
    return value == null ? 0L : ((Number) value).longValue();
  }

  private static Instant instant(SolrDocument doc, String field) {
    Object value = doc.getFirstValue(field);
    return value == null ? null : ((Date) value).toInstant();
  }

  private static List<String> strings(SolrDocument doc, String field) {
    Collection<Object> values = doc.getFieldValues(field);
    if (values == null) {
      return List.of();
    }
    return values.stream().map(Object::toString).toList();
  }

  private static <E extends Enum<E>> E enumOrNull(Class<E> type, String name) {
    return name == null ? null : Enum.valueOf(type, name);
  }
}
