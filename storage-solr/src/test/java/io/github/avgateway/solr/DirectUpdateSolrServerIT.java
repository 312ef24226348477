package io.github.avgateway.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.avgateway.core.model.MessageInfo;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.request.AbstractUpdateRequest;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.client.solrj.response.UpdateResponse;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded store's shortcut for plain adds, against a real embedded core. */
class DirectUpdateSolrServerIT {

  private SolrHistoryStore store;
  private SolrClient client;

  @BeforeEach
  void open(@TempDir Path dir) {
    store = SolrHistoryStore.embedded(dir.resolve("solr"), "history");
    client = store.client();
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void theEmbeddedStoreUsesTheShortcut() {
    assertThat(client).isInstanceOf(DirectUpdateSolrServer.class);
  }

  @Test
  void onlyPlainAddsTakeTheShortcut() {
    SolrInputDocument doc = document("r1");
    assertThat(DirectUpdateSolrServer.addsOnly(adds(doc))).isTrue();

    UpdateRequest withDelete = adds(doc);
    withDelete.deleteById("x");
    UpdateRequest withCommit = adds(doc);
    withCommit.setAction(AbstractUpdateRequest.ACTION.COMMIT, true, true);
    UpdateRequest withParam = adds(doc);
    withParam.setParam("update.chain", "other");
    UpdateRequest withOptions = new UpdateRequest();
    withOptions.add(doc, 5000);
    UpdateRequest deleteOnly = new UpdateRequest();
    deleteOnly.deleteByQuery("*:*");
    for (UpdateRequest other :
        List.of(withDelete, withCommit, withParam, withOptions, deleteOnly)) {
      assertThat(DirectUpdateSolrServer.addsOnly(other)).as(other.toString()).isFalse();
    }
  }

  @Test
  void anAddWithoutOverwriteTakesTheShortcutAndKeepsBothCopies() throws Exception {
    SolrInputDocument doc = document("r9");
    UpdateRequest request = new UpdateRequest();
    request.add(doc, false);
    assertThat(DirectUpdateSolrServer.addsOnly(request)).isTrue();
    assertThat(request.process(client, "history").getStatus()).isZero();
    assertThat(request.process(client, "history").getStatus()).isZero();
    client.commit("history");
    assertThat(
            client
                .query("history", new SolrQuery("id:\"" + doc.getFieldValue("id") + "\""))
                .getResults()
                .getNumFound())
        .isEqualTo(2);
  }

  @Test
  void addedDocumentsAreIndexedAndTheCallersDocumentsStayUntouched() throws Exception {
    SolrInputDocument first = document("r1");
    SolrInputDocument second = document("r2");
    UpdateRequest request = adds(first, second);
    request.setCommitWithin(1000);
    assertThat(DirectUpdateSolrServer.addsOnly(request)).isTrue();

    UpdateResponse response = request.process(client, "history");
    assertThat(response.getStatus()).isZero();
    // The same documents sent again (a batch recorded again) overwrite, not conflict.
    assertThat(request.process(client, "history").getStatus()).isZero();
    client.commit("history");

    assertThat(first.getFieldNames()).doesNotContain("_version_");
    assertThat(client.query("history", new SolrQuery("*:*")).getResults().getNumFound())
        .isEqualTo(2);
    SolrDocument indexed = client.getById("history", first.getFieldValue("id").toString());
    assertThat((Object) indexed).isNotNull();
    assertThat(indexed.getFieldValue("_version_")).isNotNull();
  }

  @Test
  void aDocumentTheSchemaRefusesFailsTheRequest() {
    SolrInputDocument bad = document("r3");
    bad.setField("no_such_field_in_the_schema", "x");

    assertThatThrownBy(() -> adds(bad).process(client, "history"))
        .isInstanceOf(SolrServerException.class)
        .hasMessageContaining("no_such_field_in_the_schema");
  }

  @Test
  void requestsOutsideTheShortcutStillWork() throws Exception {
    adds(document("r4")).process(client, "history");
    client.commit("history");
    UpdateRequest delete = new UpdateRequest();
    delete.deleteByQuery("*:*");
    assertThat(delete.process(client, "history").getStatus()).isZero();
    client.commit("history");
    assertThat(client.query("history", new SolrQuery("*:*")).getResults().getNumFound()).isZero();
  }

  private static UpdateRequest adds(SolrInputDocument... docs) {
    UpdateRequest request = new UpdateRequest();
    request.add(List.of(docs));
    return request;
  }

  private static SolrInputDocument document(String requestId) {
    MessageInfo info = HistoryDocs.clean("gw-direct", requestId, Instant.now());
    return SolrDocumentMapper.toDocument(info);
  }
}
