package io.github.avgateway.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.port.Availability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.SolrServerException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded store opened in the background, as the auto-configuration opens it. */
class EmbeddedBackgroundOpenIT {

  private static final Duration OPEN = Duration.ofSeconds(90);

  @Test
  void gateIsDownWhileStartingThenRecordsAndFinds(@TempDir Path dir) throws Exception {
    SolrHistoryGate gate = new SolrHistoryGate();
    try (SolrHistoryStore store =
        SolrHistoryStore.embeddedInBackground(dir.resolve("solr"), "history", gate)) {
      assertThat(gate.accepting())
          .isInstanceOfSatisfying(
              Availability.Down.class,
              down -> assertThat(down.why()).contains("embedded Solr is starting"));

      await().atMost(OPEN).until(() -> gate.writes() instanceof Availability.Up);
      MessageInfo doc =
          HistoryDocs.clean("bg", "bg-1", Instant.now().truncatedTo(ChronoUnit.MILLIS));
      try (SolrHistoryRecorder recorder =
          new SolrHistoryRecorder(
              store.client(), store.collection(), RecorderSettings.defaults(), gate)) {
        recorder.record(doc).get(30, TimeUnit.SECONDS);
      }
      SolrHistoryQueries queries = new SolrHistoryQueries(store.client(), store.collection());
      assertThat(queries.byRequestId(doc.transport(), doc.requestId()))
          .hasValueSatisfying(found -> assertThat(found.requestId()).isEqualTo("bg-1"));
    }
  }

  @Test
  void failedOpenKeepsTheGateDownWithTheReasonAndRequestsFail(@TempDir Path dir) throws Exception {
    Path notADirectory = Files.writeString(dir.resolve("solr"), "a file, not a solr home");
    SolrHistoryGate gate = new SolrHistoryGate();
    try (SolrHistoryStore store =
        SolrHistoryStore.embeddedInBackground(notADirectory, "history", gate)) {
      await()
          .atMost(OPEN)
          .untilAsserted(() ->
              assertThat(gate.writes())
                  .isInstanceOfSatisfying(
                      Availability.Down.class,
                      down -> assertThat(down.why()).contains("failed to start")));
      assertThatThrownBy(() -> store.client().ping("history"))
          .isInstanceOf(SolrServerException.class)
          .hasMessageContaining("failed to start");
      assertThat(gate.accepting()).isInstanceOf(Availability.Down.class);
    }
  }
}
