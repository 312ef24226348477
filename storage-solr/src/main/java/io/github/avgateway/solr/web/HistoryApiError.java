package io.github.avgateway.solr.web;

import java.net.URI;
import java.util.Locale;
import org.springframework.http.HttpStatus;

/**
 * Every error the history API answers with, as the {@code error} member and the {@code type} of an
 * RFC 9457 problem document ({@code application/problem+json}).
 */
public enum HistoryApiError {
  /** A parameter is missing, malformed or out of its range; {@code parameter} names it. */
  BAD_PARAMETER(HttpStatus.BAD_REQUEST, "Bad parameter"),
  /** No history document matches (a lookup by request id only; searches answer empty lists). */
  NOT_FOUND(HttpStatus.NOT_FOUND, "Not found"),
  /** The history store did not answer; the request may be repeated later. */
  STORE_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "History store unavailable");

  private final HttpStatus status;
  private final String title;

  HistoryApiError(HttpStatus status, String title) {
    this.status = status;
    this.title = title;
  }

  public HttpStatus status() {
    return status;
  }

  public String title() {
    return title;
  }

  /** The problem type, e.g. {@code urn:avgateway:history:bad-parameter}. */
  public URI type() {
    return URI.create("urn:avgateway:history:" + name().toLowerCase(Locale.ROOT).replace('_', '-'));
  }
}
