package io.github.avgateway.load.harness;

import java.util.EnumMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Groups a gateway JVM's threads by what they work for, from the names in {@code
 * /proc/PID/task/TID/stat} (the kernel's {@code comm}: a Java thread's name cut to 15 characters),
 * and adds up the CPU each group used between two samples. The patterns were read off running
 * gateways: Artemis names every thread of its factories {@code Thread-N (activemq-...)}, which the
 * cut leaves as {@code Thread-N (activ}; the embedded Solr's threads keep a recognisable prefix.
 */
final class ThreadGroups {

  /** What a thread works for. */
  enum Group {
    /** The embedded Artemis broker (JMS gateway) and its in-VM client side. */
    BROKER("broker", "^Thread-\\d+ \\(|^activemq-|(?i)artemis"),
    /**
     * The embedded Solr: the history writers (which index into Lucene on their own thread), commit,
     * searcher, merge and Solr's executor threads.
     */
    SOLR(
        "solr",
        "^solr-history-|^commitScheduler|^searcherExecuto|^Lucene Merge|^h2sc-|^httpShardExecu"
            + "|^CloserThread|^Connection evic|^coreContainer|^coreLoadExecuto|^updateExecutor"
            + "|^recoveryExecut|^MetricsHistory|^qtp"),
    /** The history indexer that drains the broker's history queue into Solr (gateway code). */
    INDEXER("indexer", "^jms-history-|^amqp-history-|^avgatewayHistor"),
    /**
     * Sending spans: the Zipkin reporter's flush thread ({@code AsyncReporter{...}}, which encodes
     * the finished spans and posts them) and the JDK HTTP client's threads it posts with (the
     * gateways use that client for nothing else). The spans' making on the request threads is in
     * {@link #OTHER}.
     */
    TRACING("tracing", "^AsyncReporter|^HttpClient-\\d+-|^span-batcher"),
    /** The JIT compilers. */
    JIT("jit", "^C[12] CompilerThre"),
    /**
     * The collector's threads: the pause workers ({@code GC Thread#N}, parallel and G1) and G1's
     * concurrent marking, refinement and service threads (part of the gateway's own CPU: its
     * allocation, not the broker's or Solr's alone, drives them).
     */
    GC("gc", "^GC Thread#|^G1 "),
    /** Everything else: consumers, clamd client, broker client, ... (the gateway's own). */
    OTHER("other", "(?!)");

    final String key;
    private final Pattern pattern;

    Group(String key, String regex) {
      this.key = key;
      this.pattern = Pattern.compile(regex);
    }

    /** The group of a thread by its {@code comm}. */
    static Group of(String comm) {
      for (Group group : values()) {
        if (group.pattern.matcher(comm).find()) {
          return group;
        }
      }
      return OTHER;
    }
  }

  /**
   * One thread at one moment.
   *
   * @param comm its name as the kernel keeps it (at most 15 characters)
   * @param ticks user + system clock ticks so far
   */
  record Sample(String comm, long ticks) {

    /**
     * Parses a {@code /proc/PID/task/TID/stat} line; the name may hold spaces and parentheses, so
     * it is what lies between the first {@code (} and the last {@code )}.
     */
    static Sample parse(String stat) {
      int open = stat.indexOf('(');
      int close = stat.lastIndexOf(')');
      String[] fields = stat.substring(close + 2).strip().split(" ");
      return new Sample(
          stat.substring(open + 1, close), Long.parseLong(fields[11]) + Long.parseLong(fields[12]));
    }
  }

  private ThreadGroups() {}

  /**
   * Ticks each group used from {@code first} to {@code last} (thread id to sample). A thread not in
   * {@code first}, or whose id now names another thread, started in between and counts from zero; a
   * thread missing from {@code last} ended in between and counts for nothing here (the process' own
   * total still has it).
   */
  static Map<Group, Long> used(Map<Long, Sample> first, Map<Long, Sample> last) {
    Map<Group, Long> used = new EnumMap<>(Group.class);
    for (Group group : Group.values()) {
      used.put(group, 0L);
    }
    last.forEach((tid, now) -> {
      Sample then = first.get(tid);
      long before = then != null && then.comm().equals(now.comm()) ? then.ticks() : 0;
      used.merge(Group.of(now.comm()), Math.max(0, now.ticks() - before), Long::sum);
    });
    return used;
  }
}
