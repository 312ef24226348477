package io.github.avgateway.solr;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.Verdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.common.SolrDocument;

/** History documents for tests. */
public final class HistoryDocs {

  private HistoryDocs() {}

  /** A replied request with the given verdict and signatures, everything else plausible. */
  public static MessageInfo message(
      String gateway,
      String requestId,
      Verdict verdict,
      Instant receivedAt,
      String sha256,
      List<String> signatures) {
    Reason reason =
        switch (verdict) {
          case CLEAN, INFECTED -> null;
          case UNSCANNABLE -> Reason.LIMITS_EXCEEDED;
          case ERROR -> Reason.SCAN_FAILED;
        };
    return new MessageInfo(
        MessageInfo.idFor("amqp", requestId),
        requestId,
        "corr-" + requestId,
        "amqp",
        "client-1",
        requestId + ".bin",
        "application/octet-stream",
        68,
        sha256,
        verdict,
        signatures,
        reason,
        "ClamAV 1.4.6",
        "27451",
        false,
        receivedAt,
        receivedAt.plusMillis(3),
        3,
        5,
        gateway,
        false,
        Disposition.REPLIED,
        null);
  }

  /** A plain CLEAN document received at {@code receivedAt}. */
  public static MessageInfo clean(String gateway, String requestId, Instant receivedAt) {
    return message(gateway, requestId, Verdict.CLEAN, receivedAt, "0".repeat(64), List.of());
  }

  /** The same request delivered again and dead-lettered this time. */
  public static MessageInfo redeliveredAndDeadLettered(MessageInfo first) {
    return new MessageInfo(
        first.id(),
        first.requestId(),
        first.correlationId(),
        first.transport(),
        first.clientId(),
        first.filename(),
        first.contentType(),
        first.sizeBytes(),
        first.sha256(),
        Verdict.ERROR,
        List.of(),
        Reason.MALFORMED_REQUEST,
        first.engine(),
        first.signatureVersion(),
        true,
        first.receivedAt(),
        first.scannedAt(),
        first.scanMillis(),
        first.totalMillis(),
        first.gateway(),
        true,
        Disposition.DEAD_LETTERED,
        DeadLetterReason.REPLY_UNROUTABLE);
  }

  /**
   * Every history document in {@code collection} whose correlation id starts with {@code prefix}
   * (the correlation id is not indexed: the documents are read and filtered here, which suits the
   * private stores of tests and rigs).
   */
  public static List<MessageInfo> withCorrelationPrefix(
      SolrClient client, String collection, String prefix) throws Exception {
    SolrQuery query = new SolrQuery("*:*");
    query.addFilterQuery(DocumentSearch.DOCUMENTS_ONLY);
    query.setRows(Integer.MAX_VALUE / 2);
    List<MessageInfo> found = new ArrayList<>();
    for (SolrDocument doc : client.query(collection, query).getResults()) {
      MessageInfo info = SolrDocumentMapper.fromDocument(doc);
      if (info.correlationId() != null && info.correlationId().startsWith(prefix)) {
        found.add(info);
      }
    }
    return found;
  }
}
