package io.github.avgateway.solr;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.core.CoreContainer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-process Solr: a solr home under a local directory holding the history configset and one
 * core. Created on first start, reused (documents included) on the next ones; the configset files
 * are refreshed from this module at every start.
 */
final class EmbeddedSolr {

  private static final String DISABLE_V2_API = "disable.v2.api";
  private static final String SCHEMA_PROPERTY = "avgateway.historySchema";
  private static final Logger log = LoggerFactory.getLogger(EmbeddedSolr.class);

  private EmbeddedSolr() {}

  /**
   * Moves a core written with an earlier history schema to {@code <core>.schema-<version>} beside
   * it, never deleting it, and says so in one WARN line: its documents are not shown by this
   * version (they can be read with the version that wrote them, pointed at the moved directory).
   */
  static void moveAsideIfOlder(Path solrHome, String coreName) throws IOException {
    Path core = solrHome.resolve(coreName);
    Path properties = core.resolve("core.properties");
    if (Files.notExists(properties)) {
      return;
    }
    Properties read = new Properties();
    try (var in = Files.newBufferedReader(properties, StandardCharsets.UTF_8)) {
      read.load(in);
    }
    String version = read.getProperty(SCHEMA_PROPERTY, "1");
    if (version.equals(Integer.toString(HistoryConfigset.SCHEMA_VERSION))) {
      return;
    }
    Path aside = solrHome.resolve(coreName + ".schema-" + version);
    for (int n = 2; Files.exists(aside); n++) {
      aside = solrHome.resolve(coreName + ".schema-" + version + "-" + n);
    }
    Files.move(core, aside);
    log.warn(
        "the history core under {} has history schema {}, this version writes schema {}: moved it"
            + " to {} (kept, not shown) and started a new one",
        core,
        version,
        HistoryConfigset.SCHEMA_VERSION,
        aside);
  }

  static SolrHistoryStore open(Path home, String coreName) {
    Path solrHome = home.toAbsolutePath().normalize();
    prepareHome(solrHome, coreName);
    CoreContainer container = loadWithoutV2Api(solrHome);
    Map<String, CoreContainer.CoreLoadFailure> failures = container.getCoreInitFailures();
    if (!failures.isEmpty()) {
      container.shutdown();
      throw new SolrHistoryException(
          "embedded Solr core " + coreName + " failed to load: " + failures.values(),
          failures.values().iterator().next().exception);
    }
    EmbeddedSolrServer server = new DirectUpdateSolrServer(container, coreName);
    return new SolrHistoryStore(server, coreName, () -> shutdown(server, container, coreName));
  }

  /**
   * Loads the container with Solr's v2 API switched off ({@code disable.v2.api}, read while cores
   * load). In-process requests use the v1 handlers only, and setting up the v2 API (a JAX-RS
   * application per core) took about a quarter of the embedded core's start-up CPU here (4.7 s
   * instead of 6.5 s). The property is restored afterwards, so that a Solr started later in the
   * same JVM (a test cluster, say) gets its default.
   */
  private static CoreContainer loadWithoutV2Api(Path solrHome) {
    String previous = System.getProperty(DISABLE_V2_API);
    System.setProperty(DISABLE_V2_API, "true");
    try {
      return CoreContainer.createAndLoad(solrHome);
    } finally {
      if (previous == null) {
        System.clearProperty(DISABLE_V2_API);
      } else {
        System.setProperty(DISABLE_V2_API, previous);
      }
    }
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

  /**
   * Lays out a solr home with the history configset and one core using it; keeps existing data of
   * the same schema version. A core of an earlier version is moved aside (see {@link
   * #moveAsideIfOlder}) and a new core is started.
   */
  static void prepareHome(Path solrHome, String coreName) {
    try {
      Files.createDirectories(solrHome);
      moveAsideIfOlder(solrHome, coreName);
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
            "name="
                + coreName
                + "\nconfigSet="
                + HistoryConfigset.NAME
                + "\n"
                + SCHEMA_PROPERTY
                + "="
                + HistoryConfigset.SCHEMA_VERSION
                + "\n",
            StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the embedded Solr home " + solrHome, e);
    }
  }
}
