package io.github.avgateway.solr;

import java.nio.file.Path;
import java.time.Duration;

/** The history store against a real standalone Solr over HTTP. */
class HttpHistoryIT extends HistoryStoreContract {

  private StandaloneSolr solr;

  @Override
  SolrHistoryStore openStore(Path dir) throws Exception {
    solr = StandaloneSolr.start(dir.resolve("solr-home"));
    return solr.store(Duration.ofSeconds(10));
  }

  @Override
  void stopServer() throws Exception {
    solr.close();
  }
}
