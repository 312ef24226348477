package io.github.avgateway.load.scale;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.apache.solr.embedded.JettyConfig;
import org.apache.solr.embedded.JettySolrRunner;

/**
 * One SolrCloud node in a JVM of its own: {@code SolrNodeMain SOLR_HOME ZK_ADDRESS PORT}. Jetty and
 * Solr's CoreContainer from the Maven Central artifacts ({@code solr-core}, {@code
 * solr-test-framework}'s {@code JettySolrRunner}, the same node MiniSolrCloudCluster runs), joined
 * to the ZooKeeper at {@code ZK_ADDRESS} (with its chroot), on 127.0.0.1:PORT. Its cores and index
 * live under SOLR_HOME, so a node killed with SIGKILL and started again on the same home recovers
 * its replicas from its transaction log and the other node. Prints {@code READY} once it serves and
 * stops when its standard input closes.
 */
public final class SolrNodeMain {

  private SolrNodeMain() {}

  public static void main(String[] args) throws Exception {
    Path home = Files.createDirectories(Path.of(args[0]));
    int port = Integer.parseInt(args[2]);
    Files.writeString(
        home.resolve("solr.xml"),
        MiniSolrCloudCluster.DEFAULT_CLOUD_SOLR_XML,
        StandardCharsets.UTF_8);
    Properties node = new Properties();
    node.setProperty("zkHost", args[1]);
    node.setProperty("hostPort", Integer.toString(port));
    JettyConfig config = JettyConfig.builder().setPort(port).stopAtShutdown(true).build();
    JettySolrRunner jetty = new JettySolrRunner(home.toString(), node, config);
    jetty.start();
    PrintStream out = System.out;
    out.println("READY");
    out.flush();
    Standby.untilStdinCloses();
    jetty.stop();
  }
}
