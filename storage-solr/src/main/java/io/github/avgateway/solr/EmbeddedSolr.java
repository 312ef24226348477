package io.github.avgateway.solr;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.core.CoreContainer;

/**
 * An in-process Solr: a solr home under a local directory holding the history configset and one
 * core. Created on first start, reused (documents included) on the next ones; the configset files
 * are refreshed from this module at every start.
 */
final class EmbeddedSolr {

  private EmbeddedSolr() {}

  static SolrHistoryStore open(Path home, String coreName) {
    Path solrHome = home.toAbsolutePath().normalize();
    prepareHome(solrHome, coreName);
    CoreContainer container = CoreContainer.createAndLoad(solrHome);
    Map<String, CoreContainer.CoreLoadFailure> failures = container.getCoreInitFailures();
    if (!failures.isEmpty()) {
      container.shutdown();
      throw new SolrHistoryException(
          "embedded Solr core " + coreName + " failed to load: " + failures.values(),
          failures.values().iterator().next().exception);
    }
    EmbeddedSolrServer server = new EmbeddedSolrServer(container, coreName);
    return new SolrHistoryStore(server, coreName, () -> shutdown(server, container, coreName));
  }

  /**
   * One soft commit at shutdown, so that no {@code commitWithin} is still pending when the core
   * closes (Solr would log a failed auto commit), then the container stops and commits on close.
   */
  private static void shutdown(EmbeddedSolrServer server, CoreContainer container, String core) {
    try {
      server.commit(core, true, true, true);
    } catch (SolrServerException | IOException | RuntimeException e) {
      // the container's own close commits too; nothing is lost
    } finally {
      container.shutdown();
    }
  }

  /** Lays out a solr home with the history configset and one core using it; keeps existing data. */
  static void prepareHome(Path solrHome, String coreName) {
    try {
      Files.createDirectories(solrHome);
      Path solrXml = solrHome.resolve("solr.xml");
      if (Files.notExists(solrXml)) {
        Files.writeString(solrXml, "<solr/>\n", StandardCharsets.UTF_8);
      }
      HistoryConfigset.copyTo(
          solrHome.resolve("configsets").resolve(HistoryConfigset.NAME).resolve("conf"));
      Path coreProperties = solrHome.resolve(coreName).resolve("core.properties");
      if (Files.notExists(coreProperties)) {
        Files.createDirectories(coreProperties.getParent());
        Files.writeString(
            coreProperties,
            "name=" + coreName + "\nconfigSet=" + HistoryConfigset.NAME + "\n",
            StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the embedded Solr home " + solrHome, e);
    }
  }
}
