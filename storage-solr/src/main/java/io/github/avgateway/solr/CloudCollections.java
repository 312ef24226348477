package io.github.avgateway.solr;

import java.util.List;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.ConfigSetAdminRequest;
import org.apache.solr.client.solrj.response.CollectionAdminResponse;
import org.apache.solr.common.util.ContentStreamBase;

/**
 * Creates the history collection in SolrCloud if it is absent, uploading the history configset
 * first when the cluster does not have it. An existing collection is used as it is.
 */
final class CloudCollections {

  private CloudCollections() {}

  static void ensure(SolrClient client, String collection, int shards, int replicas) {
    SolrHistoryQueries.call(() -> {
      List<String> collections = CollectionAdminRequest.listCollections(client);
      if (!collections.contains(collection)) {
        ensureConfigset(client);
        create(client, collection, shards, replicas);
      }
      return null;
    });
  }

  /** Uploads the history configset unless the cluster has it. */
  static void ensureConfigset(SolrClient client) throws Exception {
    List<String> configsets = new ConfigSetAdminRequest.List().process(client).getConfigSets();
    if (configsets.contains(HistoryConfigset.NAME)) {
      return;
    }
    ContentStreamBase.ByteArrayStream zip =
        new ContentStreamBase.ByteArrayStream(
            HistoryConfigset.zip(), HistoryConfigset.NAME + ".zip", "application/zip");
    new ConfigSetAdminRequest.Upload()
        .setConfigSetName(HistoryConfigset.NAME)
        .setUploadStream(zip)
        .process(client);
  }

  private static void create(SolrClient client, String collection, int shards, int replicas)
      throws Exception {
    CollectionAdminResponse response =
        CollectionAdminRequest.createCollection(collection, HistoryConfigset.NAME, shards, replicas)
            .process(client);
    if (!response.isSuccess()) {
      throw new SolrHistoryException(
          "creating collection " + collection + " failed: " + response.getErrorMessages());
    }
  }
}
