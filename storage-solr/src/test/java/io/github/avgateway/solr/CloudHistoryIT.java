package io.github.avgateway.solr;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.ConfigSetAdminRequest;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.junit.jupiter.api.Test;

/**
 * The history store in SolrCloud: two Solr nodes and ZooKeeper in this JVM, no configset or
 * collection beforehand; the store uploads the configset and creates a two-shard collection.
 */
class CloudHistoryIT extends HistoryStoreContract {

  private MiniSolrCloudCluster cluster;

  @Override
  SolrHistoryStore openStore(Path dir) throws Exception {
    cluster = new MiniSolrCloudCluster.Builder(2, dir.resolve("cluster")).build();
    CloudHttp2SolrClient client =
        new CloudHttp2SolrClient.Builder(
                List.of(cluster.getZkServer().getZkAddress()), Optional.empty())
            .build();
    return SolrHistoryStore.cloud(client, "history", 2, 1);
  }

  @Override
  void stopServer() throws Exception {
    cluster.shutdown();
  }

  @Test
  void theCollectionWasCreatedFromTheHistoryConfigsetAcrossBothNodes() throws Exception {
    var client = cluster.getSolrClient();
    assertThat(CollectionAdminRequest.listCollections(client)).contains("history");
    assertThat(new ConfigSetAdminRequest.List().process(client).getConfigSets())
        .contains(HistoryConfigset.NAME);
    var collection = client.getClusterState().getCollection("history");
    assertThat(collection.getConfigName()).isEqualTo(HistoryConfigset.NAME);
    assertThat(collection.getSlices()).hasSize(2);
    assertThat(collection.getReplicas().stream().map(r -> r.getNodeName()).distinct()).hasSize(2);
  }
}
