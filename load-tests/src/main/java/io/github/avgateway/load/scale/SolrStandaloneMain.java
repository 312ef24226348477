package io.github.avgateway.load.scale;

import io.github.avgateway.solr.StandaloneSolr;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * A standalone Solr with the history core in a JVM of its own: {@code SolrStandaloneMain SOLR_HOME
 * PORT}. Jetty and Solr from the Maven Central artifacts, the history configset installed as the
 * gateway installs it, bound to 127.0.0.1:PORT; its core and index live under SOLR_HOME and are
 * kept between starts. Prints {@code READY} once it serves and stops when its standard input
 * closes.
 */
public final class SolrStandaloneMain {

  private SolrStandaloneMain() {}

  public static void main(String[] args) throws Exception {
    try (StandaloneSolr solr = StandaloneSolr.start(Path.of(args[0]), Integer.parseInt(args[1]))) {
      PrintStream out = System.out;
      out.println("READY");
      out.flush();
      Standby.untilStdinCloses();
    }
  }
}
