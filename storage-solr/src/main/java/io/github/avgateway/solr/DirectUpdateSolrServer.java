package io.github.avgateway.solr;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.common.util.NamedList;
import org.apache.solr.common.util.SimpleOrderedMap;
import org.apache.solr.core.CoreContainer;
import org.apache.solr.core.SolrCore;
import org.apache.solr.request.LocalSolrQueryRequest;
import org.apache.solr.request.SolrQueryRequest;
import org.apache.solr.request.SolrRequestInfo;
import org.apache.solr.response.SolrQueryResponse;
import org.apache.solr.update.AddUpdateCommand;
import org.apache.solr.update.processor.UpdateRequestProcessor;

/**
 * The embedded Solr's client, with one shortcut: an update request that only adds documents (what
 * the history recorder sends) goes straight to the core's update processor chain. {@link
 * EmbeddedSolrServer} would write the batch as JavaBin and parse it back in the same JVM, about a
 * fifth of the history's CPU in the gateway's profile. Everything else (queries, deletes, commits,
 * requests with options other than overwrite) takes {@code EmbeddedSolrServer}'s own path. The
 * chain sees copies of the documents, as it would after the round trip, so the caller's documents
 * stay as they were.
 */
final class DirectUpdateSolrServer extends EmbeddedSolrServer {

  private static final String UPDATE_PATH = "/update";
  private static final Set<String> OVERWRITE_ONLY = Set.of(UpdateRequest.OVERWRITE);

  DirectUpdateSolrServer(CoreContainer container, String coreName) {
    super(container, coreName);
  }

  @Override
  public NamedList<Object> request(SolrRequest<?> request, String collection)
      throws SolrServerException, IOException {
    if (request instanceof UpdateRequest update && addsOnly(update)) {
      return add(update, collection == null ? coreName : collection);
    }
    return super.request(request, collection);
  }

  /**
   * Documents only: no deletes, no commit or optimize, no parameters, no per-document option but
   * overwrite.
   */
  static boolean addsOnly(UpdateRequest update) {
    List<SolrInputDocument> docs = update.getDocuments();
    ModifiableSolrParams params = update.getParams();
    Map<SolrInputDocument, Map<String, Object>> options = update.getDocumentsMap();
    return UPDATE_PATH.equals(update.getPath())
        && docs != null
        && !docs.isEmpty()
        && isEmpty(update.getDeleteById())
        && isEmpty(update.getDeleteQuery())
        && update.getDocIterator() == null
        && update.getAction() == null
        && (params == null || params.size() == 0)
        && options.values().stream()
            .allMatch(o -> o == null || OVERWRITE_ONLY.containsAll(o.keySet()));
  }

  private NamedList<Object> add(UpdateRequest update, String collection)
      throws SolrServerException {
    long started = System.nanoTime();
    try (SolrCore core = coreContainer.getCore(collection)) {
      if (core == null) {
        throw new SolrServerException("no Solr core named " + collection);
      }
      try (SolrQueryRequest req = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
        SolrQueryResponse rsp = new SolrQueryResponse();
        SolrRequestInfo.setRequestInfo(new SolrRequestInfo(req, rsp));
        try {
          process(core, req, rsp, update);
        } finally {
          SolrRequestInfo.clearRequestInfo();
        }
        if (rsp.getException() != null) {
          throw new SolrServerException(rsp.getException());
        }
      }
    } catch (IOException | SolrException e) {
      throw new SolrServerException("the embedded Solr refused the update: " + e.getMessage(), e);
    }
    return header(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
  }

  private static void process(
      SolrCore core, SolrQueryRequest req, SolrQueryResponse rsp, UpdateRequest update)
      throws IOException {
    UpdateRequestProcessor processor =
        core.getUpdateProcessingChain(null).createProcessor(req, rsp);
    try {
      for (var doc : update.getDocumentsMap().entrySet()) {
        AddUpdateCommand add = new AddUpdateCommand(req);
        add.solrDoc = doc.getKey().deepCopy();
        add.commitWithin = update.getCommitWithin();
        if (doc.getValue() != null
            && Boolean.FALSE.equals(doc.getValue().get(UpdateRequest.OVERWRITE))) {
          add.overwrite = false;
        }
        processor.processAdd(add);
      }
      processor.finish();
    } finally {
      processor.close();
    }
  }

  private static NamedList<Object> header(long qtimeMillis) {
    NamedList<Object> header = new SimpleOrderedMap<>();
    header.add("status", 0);
    header.add("QTime", qtimeMillis);
    NamedList<Object> response = new NamedList<>();
    response.add("responseHeader", header);
    return response;
  }

  private static boolean isEmpty(List<?> list) {
    return list == null || list.isEmpty();
  }
}
