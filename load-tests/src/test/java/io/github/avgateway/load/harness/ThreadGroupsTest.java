package io.github.avgateway.load.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.load.harness.ThreadGroups.Group;
import io.github.avgateway.load.harness.ThreadGroups.Sample;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThreadGroupsTest {

  /** A task's stat line as the kernel writes it: utime and stime are fields 14 and 15. */
  private static String stat(long tid, String comm, long utime, long stime) {
    return tid
        + " ("
        + comm
        + ") S 7631 7631 1 0 -1 4194368 1200 0 0 0 "
        + utime
        + " "
        + stime
        + " 0 0 20 0 129 0 1795615 0 0 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";
  }

  @Test
  void parsesNameAndUserPlusSystemTicksEvenWithSpacesAndParenthesesInTheName() {
    assertThat(Sample.parse(stat(8057, "jms-consumer-1", 120, 30)))
        .isEqualTo(new Sample("jms-consumer-1", 150));
    assertThat(Sample.parse(stat(7849, "Thread-0 (activ", 7, 2)))
        .isEqualTo(new Sample("Thread-0 (activ", 9));
    assertThat(Sample.parse(stat(7647, "C2 CompilerThre", 340, 3)).ticks()).isEqualTo(343);
  }

  @Test
  void groupsTheNamesSeenInRunningGateways() {
    // comm as /proc/PID/task/*/comm showed them for the JMS and AMQP gateways (15 characters)
    assertThat(Group.of("Thread-0 (activ")).isEqualTo(Group.BROKER);
    assertThat(Group.of("Thread-27 (acti")).isEqualTo(Group.BROKER);
    assertThat(Group.of("Thread-123 (act")).isEqualTo(Group.BROKER);
    assertThat(Group.of("activemq-buffer")).isEqualTo(Group.BROKER);
    assertThat(Group.of("activemq-failur")).isEqualTo(Group.BROKER);
    for (String solr :
        new String[] {
          "solr-history-wr",
          "solr-history-ba",
          "commitScheduler",
          "searcherExecuto",
          "Lucene Merge Th",
          "h2sc-7-thread-1",
          "httpShardExecut",
          "CloserThread"
        }) {
      assertThat(Group.of(solr)).as(solr).isEqualTo(Group.SOLR);
    }
    assertThat(Group.of("jms-history-ind")).isEqualTo(Group.INDEXER);
    assertThat(Group.of("amqp-history-ba")).isEqualTo(Group.INDEXER);
    assertThat(Group.of("avgatewayHistor")).isEqualTo(Group.INDEXER);
    assertThat(Group.of("AsyncReporter{Z")).isEqualTo(Group.TRACING);
    assertThat(Group.of("HttpClient-1-Wo")).isEqualTo(Group.TRACING);
    assertThat(Group.of("HttpClient-1-Se")).isEqualTo(Group.TRACING);
    assertThat(Group.of("C1 CompilerThre")).isEqualTo(Group.JIT);
    for (String gc : new String[] {"GC Thread#0", "G1 Conc#0", "G1 Refine#0", "G1 Main Marker"}) {
      assertThat(Group.of(gc)).as(gc).isEqualTo(Group.GC);
    }
    for (String own :
        new String[] {
          "jms-consumer-1",
          "avgatewayAmqpCo",
          "rabbitConnectio",
          "AMQP Connection",
          "pool-2-thread-3",
          "clamd-upkeep",
          "VM Thread",
          "Thread-3",
          "http-nio-127.0."
        }) {
      assertThat(Group.of(own)).as(own).isEqualTo(Group.OTHER);
    }
  }

  @Test
  void addsUpEachGroupsTicksBetweenTwoSamples() {
    Map<Long, Sample> first =
        Map.of(
            1L, new Sample("Thread-0 (activ", 100),
            2L, new Sample("jms-consumer-1", 50),
            3L, new Sample("commitScheduler", 10),
            4L, new Sample("Lucene Merge Th", 30)); // ends before the last sample
    Map<Long, Sample> last =
        Map.of(
            1L, new Sample("Thread-0 (activ", 160),
            2L, new Sample("jms-consumer-1", 90),
            3L, new Sample("commitScheduler", 12),
            5L, new Sample("Thread-9 (activ", 5), // started in between: all its ticks count
            6L, new Sample("C2 CompilerThre", 40));
    assertThat(ThreadGroups.used(first, last))
        .containsEntry(Group.BROKER, 65L)
        .containsEntry(Group.OTHER, 40L)
        .containsEntry(Group.SOLR, 2L)
        .containsEntry(Group.JIT, 40L)
        .containsEntry(Group.INDEXER, 0L);
  }

  @Test
  void aThreadIdNowNamingAnotherThreadCountsFromZero() {
    Map<Long, Sample> first = Map.of(7L, new Sample("solr-history-wr", 500));
    Map<Long, Sample> last = Map.of(7L, new Sample("Thread-4 (activ", 20));
    assertThat(ThreadGroups.used(first, last))
        .containsEntry(Group.BROKER, 20L)
        .containsEntry(Group.SOLR, 0L);
  }
}
