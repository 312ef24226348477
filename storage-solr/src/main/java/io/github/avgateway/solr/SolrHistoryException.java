package io.github.avgateway.solr;

/** Solr did not accept history documents (refused, unreachable, too slow, or the store closed). */
public class SolrHistoryException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public SolrHistoryException(String message) {
    super(message);
  }

  public SolrHistoryException(String message, Throwable cause) {
    super(message, cause);
  }
}
