package io.github.avgateway.solr.web;

import java.util.Objects;

/**
 * A request the history API answers with an error: {@link HistoryApiErrors} turns it into a problem
 * document.
 */
public final class HistoryApiException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final HistoryApiError error;
  private final String parameter;

  private HistoryApiException(
      HistoryApiError error, String parameter, String detail, Throwable cause) {
    super(detail, cause);
    this.error = Objects.requireNonNull(error, "error");
    this.parameter = parameter;
  }

  /** {@code parameter} is missing, malformed or out of range. */
  public static HistoryApiException badParameter(String parameter, String detail) {
    return new HistoryApiException(
        HistoryApiError.BAD_PARAMETER, parameter, parameter + ": " + detail, null);
  }

  /** Nothing matches. */
  public static HistoryApiException notFound(String detail) {
    return new HistoryApiException(HistoryApiError.NOT_FOUND, null, detail, null);
  }

  /** The store failed to answer. */
  public static HistoryApiException storeUnavailable(RuntimeException cause) {
    return new HistoryApiException(
        HistoryApiError.STORE_UNAVAILABLE, null, "the history store did not answer", cause);
  }

  public HistoryApiError error() {
    return error;
  }

  /** The offending parameter, for {@link HistoryApiError#BAD_PARAMETER}; else null. */
  public String parameter() {
    return parameter;
  }
}
