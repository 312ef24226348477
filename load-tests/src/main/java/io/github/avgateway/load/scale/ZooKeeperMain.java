package io.github.avgateway.load.scale;

import java.io.PrintStream;
import java.nio.file.Path;
import org.apache.solr.cloud.ZkTestServer;

/**
 * A standalone ZooKeeper for the scale-out run's SolrCloud, in a JVM of its own: {@code
 * ZooKeeperMain DATA_DIR PORT}. Listens on 127.0.0.1:PORT with the {@code /solr} chroot created,
 * prints {@code READY}, and stops when its standard input closes (the parent ended or let it go).
 * Solr's own test ZooKeeper server ({@code solr-test-framework}) is the embedded ZooKeeper the
 * issue allows; it is one node, so it is the one part of the topology this run never kills.
 */
public final class ZooKeeperMain {

  private ZooKeeperMain() {}

  public static void main(String[] args) throws Exception {
    ZkTestServer zk = new ZkTestServer(Path.of(args[0]), Integer.parseInt(args[1]));
    zk.run(false);
    zk.ensurePathExists("/solr");
    PrintStream out = System.out;
    out.println("READY");
    out.flush();
    Standby.untilStdinCloses();
    zk.shutdown();
  }
}
