package io.github.avgateway.load.history;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.MergeTrigger;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.InfoStream;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.core.CoreContainer;
import org.apache.solr.core.SolrCore;
import org.apache.solr.util.RefCounted;

/**
 * The merges the history core's merge policy wants, and letting them finish before an ingest
 * window. The fill writes about ten times faster than a gateway, and each restart of Solr aborts
 * the merges in flight; at 100 M documents it had left merges due over most of the index's bytes,
 * which the next ingest window then paid for. A gateway writing at its own rate pays its merges as
 * it goes, so a window measured on a settled index, with the merges it leaves due printed after it,
 * is the deployment's steady state.
 */
final class MergeSettle {

  private static final Duration POLL = Duration.ofMillis(500);

  private MergeSettle() {}

  /**
   * Merges due on an index's latest commit.
   *
   * @param segments segments in the commit
   * @param merges merges the policy would start
   * @param bytes bytes those merges would read (and about as many write)
   */
  record Due(int segments, int merges, long bytes) {
    String describe() {
      return String.format(
          "%,d segments; %,d merges due over %s", segments, merges, HistoryScale.mib(bytes));
    }
  }

  /**
   * What a settle did.
   *
   * @param before merges due when it began
   * @param seconds from the core's opening until no merge was pending or running, the commit and
   *     the core's closing included
   * @param cpuSeconds CPU of this JVM meanwhile (it does nothing else)
   * @param after merges due on the commit it left
   */
  record Settled(Due before, double seconds, double cpuSeconds, Due after) {}

  /**
   * The merges Lucene's tiered merge policy with its defaults (the history core's: its solrconfig
   * names none) would start on the index's latest commit. Reads the commit only, so Solr may run.
   */
  static Due due(Path index) throws IOException {
    try (Directory dir = FSDirectory.open(index)) {
      SegmentInfos infos = SegmentInfos.readLatestCommit(dir);
      MergePolicy.MergeSpecification spec =
          new TieredMergePolicy().findMerges(MergeTrigger.EXPLICIT, infos, new Committed());
      int merges = 0;
      long bytes = 0;
      if (spec != null) {
        for (MergePolicy.OneMerge merge : spec.merges) {
          merges++;
          for (SegmentCommitInfo segment : merge.segments) {
            bytes += segment.sizeInBytes();
          }
        }
      }
      return new Due(infos.size(), merges, bytes);
    }
  }

  /**
   * Opens the core in this JVM (the standalone Solr must be stopped), lets its index writer run
   * every merge its policy wants (cascades included) with two merge threads and no I/O throttle,
   * commits and closes.
   *
   * @throws IllegalStateException when merges are still running after {@code limit}
   */
  static Settled settle(Path solrHome, String coreName, Duration limit) throws Exception {
    Path index = solrHome.resolve(coreName).resolve("data").resolve("index");
    Due before = due(index);
    CoreContainer container = CoreContainer.createAndLoad(solrHome);
    long started = System.nanoTime(); // the core's loading is not the merges' cost
    Duration cpuBefore = cpu();
    try (EmbeddedSolrServer server = new EmbeddedSolrServer(container, coreName)) {
      try (SolrCore core = container.getCore(coreName)) {
        RefCounted<IndexWriter> ref = core.getSolrCoreState().getIndexWriter(core);
        try {
          mergeAll(ref.get(), started + limit.toNanos());
        } finally {
          ref.decref();
        }
      }
      server.commit(coreName, true, true, false);
    } finally {
      container.shutdown(); // the server does not own a container it was given: the index lock
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    double cpuSeconds = cpu().minus(cpuBefore).toMillis() / 1000.0;
    return new Settled(before, seconds, cpuSeconds, due(index));
  }

  private static void mergeAll(IndexWriter writer, long deadline) throws Exception {
    if (writer.getConfig().getMergeScheduler()
        instanceof org.apache.lucene.index.ConcurrentMergeScheduler cms) {
      cms.disableAutoIOThrottle();
      cms.setMaxMergesAndThreads(6, 2);
    }
    writer.maybeMerge();
    int idle = 0;
    while (idle < 3) { // a finished merge registers its cascade before it leaves the merging set
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("merges still running at the settle's limit");
      }
      Thread.sleep(POLL);
      boolean busy = writer.hasPendingMerges() || !writer.getMergingSegments().isEmpty();
      idle = busy ? 0 : idle + 1;
    }
  }

  private static Duration cpu() {
    return ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO);
  }

  /** A merge context for a commit read from disk: no merge running, deletes as committed. */
  private static final class Committed implements MergePolicy.MergeContext {
    @Override
    public int numDeletesToMerge(SegmentCommitInfo info) {
      return info.getDelCount() + info.getSoftDelCount();
    }

    @Override
    public int numDeletedDocs(SegmentCommitInfo info) {
      return info.getDelCount() + info.getSoftDelCount();
    }

    @Override
    public InfoStream getInfoStream() {
      return InfoStream.NO_OUTPUT;
    }

    @Override
    public Set<SegmentCommitInfo> getMergingSegments() {
      return Set.of();
    }
  }
}
