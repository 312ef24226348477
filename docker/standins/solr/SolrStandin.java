import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.solr.embedded.JettyConfig;
import org.apache.solr.embedded.JettySolrRunner;

/**
 * Solr in standalone mode for the compose stand-in: {@code SolrStandin SOLR_HOME PORT}. Jetty and
 * Solr from Maven Central (the runner Solr's own tests use), serving the cores found under
 * SOLR_HOME at http://127.0.0.1:PORT/solr until the process is stopped. The runner listens on
 * loopback only; solr-precreate forwards the container's port 8983 to it.
 */
public final class SolrStandin {

  private SolrStandin() {}

  public static void main(String[] args) throws Exception {
    Path home = Files.createDirectories(Path.of(args[0]));
    Path solrXml = home.resolve("solr.xml");
    if (!Files.exists(solrXml)) {
      Files.writeString(solrXml, "<solr/>\n", StandardCharsets.UTF_8);
    }
    JettyConfig config =
        JettyConfig.builder().setPort(Integer.parseInt(args[1])).stopAtShutdown(true).build();
    JettySolrRunner jetty = new JettySolrRunner(home.toString(), config);
    jetty.start();
    System.out.println("solr-standin: serving " + home + " on " + jetty.getBaseUrl());
    Thread.currentThread().join();
  }
}
