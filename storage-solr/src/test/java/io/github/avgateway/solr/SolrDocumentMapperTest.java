package io.github.avgateway.solr;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.Verdict;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;
import org.junit.jupiter.api.Test;

class SolrDocumentMapperTest {

  private static final Instant RECEIVED = Instant.parse("2026-03-04T05:06:07.089Z");

  /** What Solr gives back for a stored input document. */
  private static SolrDocument stored(SolrInputDocument input) {
    SolrDocument doc = new SolrDocument();
    input.forEach((name, field) -> doc.setField(name, field.getValue()));
    return doc;
  }

  @Test
  void anInfectedDocumentMapsEveryFieldAndReadsBackEqual() {
    MessageInfo info =
        HistoryDocs.message(
            "gw-1",
            "req-1",
            Verdict.INFECTED,
            RECEIVED,
            "ab".repeat(32),
            List.of("Eicar-Test-Signature", "Other"));

    SolrInputDocument doc = SolrDocumentMapper.toDocument(info);

    assertThat(doc.getFieldValue("id")).isEqualTo("amqp:req-1");
    assertThat(doc.getFieldValue("verdict")).isEqualTo("INFECTED");
    assertThat(doc.getFieldValues("signatures")).containsExactly("Eicar-Test-Signature", "Other");
    assertThat(doc.getFieldValue("receivedAt")).isEqualTo(Date.from(RECEIVED));
    assertThat(doc.getFieldValue("disposition")).isEqualTo("REPLIED");
    assertThat(doc.getFieldNames()).doesNotContain("reason", "deadLetterReason");
    assertThat(SolrDocumentMapper.fromDocument(stored(doc))).isEqualTo(info);
  }

  @Test
  void aDeadLetteredDocumentWithAbsentOptionalFieldsReadsBackEqual() {
    MessageInfo info =
        new MessageInfo(
            MessageInfo.idFor("jms", "ID:42"),
            "ID:42",
            null,
            "jms",
            null,
            null,
            null,
            0,
            null,
            Verdict.ERROR,
            List.of(),
            Reason.MALFORMED_REQUEST,
            null,
            null,
            false,
            RECEIVED,
            null,
            0,
            1,
            null,
            true,
            Disposition.DEAD_LETTERED,
            DeadLetterReason.MALFORMED_REQUEST);

    SolrInputDocument doc = SolrDocumentMapper.toDocument(info);

    assertThat(doc.getFieldNames())
        .doesNotContain(
            "correlationId", "clientId", "filename", "sha256", "signatures", "scannedAt");
    assertThat(doc.getFieldValue("deadLetterReason")).isEqualTo("MALFORMED_REQUEST");
    assertThat(doc.getFieldValue("redelivered")).isEqualTo(true);
    assertThat(SolrDocumentMapper.fromDocument(stored(doc))).isEqualTo(info);
  }
}
