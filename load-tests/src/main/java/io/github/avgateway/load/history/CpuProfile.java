package io.github.avgateway.load.history;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * A Java Flight Recorder CPU profile of one running JVM over a span ({@code jcmd PID JFR.start},
 * then {@code JFR.stop}), summarised as the share of execution samples per thread group, per kind
 * of work (a sample counts for the first kind whose frame its stack holds) and per hottest method.
 * The recording file stays for a closer look with {@code jfr view} or JDK Mission Control.
 */
final class CpuProfile {

  /** Kinds of work, by a frame their stacks hold, in the order they are tried. */
  static final Map<String, String> KINDS = kinds();

  private final long pid;
  private final String name;
  private final Path file;

  private CpuProfile(long pid, String name, Path file) {
    this.pid = pid;
    this.name = name;
    this.file = file;
  }

  private static Map<String, String> kinds() {
    Map<String, String> kinds = new LinkedHashMap<>();
    kinds.put("merging segments", "org.apache.lucene.index.IndexWriter.merge");
    kinds.put(
        "applying deletes by id (overwrite)", "org.apache.lucene.index.FrozenBufferedUpdates");
    kinds.put(
        "opening searchers (soft commits)", "org.apache.solr.search.SolrIndexSearcher.<init>");
    kinds.put("flushing segments", "org.apache.lucene.index.DocumentsWriterPerThread.flush");
    kinds.put("update log (tlog)", "org.apache.solr.update.UpdateLog");
    kinds.put("indexing documents", "org.apache.lucene.index.IndexingChain");
    kinds.put("parsing update requests", "org.apache.solr.common.util.JavaBinCodec");
    kinds.put("searching (queries)", "org.apache.solr.search.SolrIndexSearcher");
    kinds.put("decoding history messages", "io.github.avgateway.core.wire");
    kinds.put("RabbitMQ client", "com.rabbitmq.client");
    kinds.put("Solr client", "org.apache.solr.client.solrj");
    kinds.put("HTTP server", "org.eclipse.jetty");
    return kinds;
  }

  /** Starts recording {@code pid}; the recording is written under {@code dir} when it stops. */
  static CpuProfile start(long pid, String name, Path dir)
      throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Path file = dir.resolve(name + "-" + System.currentTimeMillis() + ".jfr");
    CpuProfile profile = new CpuProfile(pid, name, file);
    profile.jcmd("JFR.start", "name=scale", "settings=profile");
    return profile;
  }

  /** Stops the recording and prints its summary to {@code out}. */
  void stopAndPrint(PrintStream out) throws IOException, InterruptedException {
    jcmd("JFR.stop", "name=scale", "filename=" + file);
    Summary summary = summarise(RecordingFile.readAllEvents(file));
    out.printf("  profile of %s (%s, %,d samples):%n", name, file, summary.samples());
    print(out, "threads", summary.threads(), summary.samples());
    print(out, "work", summary.kinds(), summary.samples());
    print(out, "hottest methods", summary.methods(), summary.samples());
  }

  private static void print(PrintStream out, String what, Map<String, Integer> counts, int total) {
    out.printf("    %s:", what);
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()))
        .limit(12)
        .forEach(e -> out.printf(" %s %.1f %%;", e.getKey(), 100.0 * e.getValue() / total));
    out.println();
  }

  /** Samples per thread group, per kind of work and per top frame. */
  record Summary(
      int samples,
      Map<String, Integer> threads,
      Map<String, Integer> kinds,
      Map<String, Integer> methods) {}

  static Summary summarise(List<RecordedEvent> events) {
    Map<String, Integer> threads = new TreeMap<>();
    Map<String, Integer> kinds = new TreeMap<>();
    Map<String, Integer> methods = new TreeMap<>();
    int samples = 0;
    for (RecordedEvent event : events) {
      RecordedStackTrace stack = event.getStackTrace();
      if (!"jdk.ExecutionSample".equals(event.getEventType().getName()) || stack == null) {
        continue;
      }
      samples++;
      String thread = event.getThread("sampledThread").getJavaName();
      threads.merge(threadGroup(thread), 1, Integer::sum);
      List<String> frames = stack.getFrames().stream().map(CpuProfile::method).toList();
      kinds.merge(kind(frames), 1, Integer::sum);
      if (!frames.isEmpty()) {
        methods.merge(frames.getFirst(), 1, Integer::sum);
      }
    }
    return new Summary(samples, threads, kinds, methods);
  }

  /** A thread's name without its numbers: {@code qtp123-45} and {@code qtp123-46} are one group. */
  static String threadGroup(String thread) {
    return thread == null ? "?" : thread.replaceAll("[0-9]+", "#");
  }

  /** The first kind of {@link #KINDS} whose frame {@code frames} (method names) holds. */
  static String kind(List<String> frames) {
    for (Map.Entry<String, String> kind : KINDS.entrySet()) {
      for (String frame : frames) {
        if (frame.startsWith(kind.getValue())) {
          return kind.getKey();
        }
      }
    }
    return "other";
  }

  private static String method(RecordedFrame frame) {
    return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
  }

  private void jcmd(String... command) throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    List<String> line = new ArrayList<>(List.of(jcmd.toString(), Long.toString(pid)));
    line.addAll(List.of(command));
    Process p = new ProcessBuilder(line).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0 || output.contains("Could not")) {
      throw new IOException("jcmd " + String.join(" ", command) + " failed: " + output.strip());
    }
  }
}
