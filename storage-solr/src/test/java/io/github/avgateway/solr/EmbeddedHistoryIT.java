package io.github.avgateway.solr;

import java.nio.file.Path;

/** The history store in embedded mode: an in-process Solr core under a local directory. */
class EmbeddedHistoryIT extends HistoryStoreContract {

  @Override
  SolrHistoryStore openStore(Path dir) {
    return SolrHistoryStore.embedded(dir.resolve("data/solr"), "history");
  }
}
