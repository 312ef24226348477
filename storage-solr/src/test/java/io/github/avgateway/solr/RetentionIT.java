package io.github.avgateway.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.port.Availability;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.SolrQuery;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** Retention over HTTP: old documents go, recent ones stay, and a purge out of budget is behind. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RetentionIT {

  private static final Instant NOW = Instant.parse("2030-06-15T12:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  private static final Duration DAY = Duration.ofDays(1);

  private StandaloneSolr solr;
  private SolrHistoryStore store;
  private SolrHistoryRecorder recorder;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    solr = StandaloneSolr.start(dir.resolve("solr-home"));
    store = solr.store(Duration.ofSeconds(10));
    recorder =
        new SolrHistoryRecorder(
            store.client(), store.collection(), RecorderSettings.defaults(), new SolrHistoryGate());
  }

  @AfterAll
  void stop() throws Exception {
    recorder.close();
    store.close();
    solr.close();
  }

  @Test
  void purgeDeletesWhatIsOlderThanTheMaxAgeAndKeepsTheRest() throws Exception {
    record("old", 300, NOW.minus(Duration.ofDays(90)), DAY.dividedBy(5)); // 90..30 days ago
    record("edge", 10, NOW.minus(Duration.ofDays(30)).plusSeconds(60), Duration.ofSeconds(1));
    record("recent", 50, NOW.minus(Duration.ofDays(10)), Duration.ofHours(1));
    await().atMost(Duration.ofSeconds(30)).until(() -> count("-kind:[* TO *]") == 360);
    SolrHistoryGate gate = new SolrHistoryGate();

    RetentionRun run = retention(gate, Duration.ofMinutes(1)).purgeOnce();

    assertThat(run.behind()).isFalse();
    assertThat(run.purged()).isEqualTo(300);
    assertThat(run.cutoff()).isEqualTo(NOW.minus(Duration.ofDays(30)));
    assertThat(gate.accepting()).isEqualTo(Availability.up());
    await().atMost(Duration.ofSeconds(30)).until(() -> count("gateway:old") == 0);
    assertThat(count("gateway:edge")).isEqualTo(10);
    assertThat(count("gateway:recent")).isEqualTo(50);
  }

  @Test
  void aPurgeOutOfBudgetIsBehindAndTurnsTheGateDownUntilAPurgeCatchesUp() throws Exception {
    record("backlog", 100, NOW.minus(Duration.ofDays(400)), DAY);
    await().atMost(Duration.ofSeconds(30)).until(() -> count("gateway:backlog") == 100);
    SolrHistoryGate gate = new SolrHistoryGate();

    RetentionRun starved = retention(gate, Duration.ZERO).purgeOnce();

    assertThat(starved.behind()).isTrue();
    assertThat(gate.accepting())
        .isInstanceOfSatisfying(
            Availability.Down.class,
            down -> assertThat(down.why()).startsWith("Solr history retention is behind"));
    // even without budget, a purge deletes its first slice (one day here): it always progresses
    await().atMost(Duration.ofSeconds(30)).until(() -> count("gateway:backlog") == 99);

    RetentionRun caughtUp = retention(gate, Duration.ofMinutes(1)).purgeOnce();
    assertThat(caughtUp.behind()).isFalse();
    assertThat(gate.accepting()).isEqualTo(Availability.up());
    await().atMost(Duration.ofSeconds(30)).until(() -> count("gateway:backlog") == 0);
  }

  private SolrRetention retention(SolrHistoryGate gate, Duration budget) {
    RetentionSettings settings =
        new RetentionSettings(Duration.ofDays(30), Duration.ofHours(1), budget, DAY);
    return new SolrRetention(
        store.client(), store.collection(), settings, Duration.ofSeconds(1), gate, CLOCK);
  }

  private void record(String gateway, int n, Instant first, Duration step) throws Exception {
    List<CompletableFuture<Void>> futures = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      MessageInfo doc =
          HistoryDocs.clean(gateway, gateway + "-" + i, first.plus(step.multipliedBy(i)));
      futures.add(recorder.record(doc));
    }
    CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
  }

  private long count(String q) throws Exception {
    SolrQuery query = new SolrQuery(q);
    query.setRows(0);
    return store.client().query(store.collection(), query).getResults().getNumFound();
  }
}
