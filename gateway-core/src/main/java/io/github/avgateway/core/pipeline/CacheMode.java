package io.github.avgateway.core.pipeline;

/**
 * When the verdict cache answers identical content ({@code avgateway.pipeline.cache.enabled}:
 * {@code auto}, {@code true}, {@code false}).
 */
public enum CacheMode {

  /**
   * Only while the scanner reports a signature database version. The version is part of the key, so
   * a reload that changes it changes every key; without one, a reload would go unnoticed.
   */
  AUTO,

  /**
   * Always. Without a reported version (custom signatures only), a verdict is reused across a
   * signature reload until its TTL ends.
   */
  ON,

  /** Never: every payload is scanned. */
  OFF
}
