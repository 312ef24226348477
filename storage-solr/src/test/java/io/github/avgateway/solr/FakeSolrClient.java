package io.github.avgateway.solr;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.util.NamedList;

/** A SolrClient without I/O: records update requests, answers OK, or fails when told to. */
final class FakeSolrClient extends SolrClient {

  private static final long serialVersionUID = 1L;

  final List<UpdateRequest> accepted = new CopyOnWriteArrayList<>();
  final List<UpdateRequest> attempted = new CopyOnWriteArrayList<>();
  volatile boolean down;
  volatile CountDownLatch hold = new CountDownLatch(0);

  /** How long every request takes, like a slow Solr. */
  volatile long latencyMillis;

  @Override
  public NamedList<Object> request(SolrRequest<?> request, String collection)
      throws SolrServerException {
    try {
      hold.await();
      if (latencyMillis > 0) {
        new CountDownLatch(1).await(latencyMillis, TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SolrServerException(e);
    }
    UpdateRequest update = (UpdateRequest) request;
    attempted.add(update);
    if (down) {
      throw new SolrServerException("connection refused");
    }
    accepted.add(update);
    NamedList<Object> header = new NamedList<>();
    header.add("status", 0);
    header.add("QTime", 1);
    NamedList<Object> response = new NamedList<>();
    response.add("responseHeader", header);
    return response;
  }

  /** Documents in accepted update requests. */
  /** History documents accepted (not the rollup slots' dirty markers sent with them). */
  int acceptedDocuments() {
    return accepted.stream().mapToInt(r -> historyDocuments(r).size()).sum();
  }

  static List<SolrInputDocument> historyDocuments(UpdateRequest request) {
    return request.getDocuments() == null
        ? List.of()
        : request.getDocuments().stream().filter(d -> !d.containsKey("kind")).toList();
  }

  @Override
  public void close() {}
}
