package io.github.avgateway.jms.fault;

import io.github.avgateway.core.fault.FaultLedger;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;

/**
 * The clean-pipe's own checks of a fault run, over what a {@link PipeFaultClient} saw arrive and
 * the run's history documents (the ledger checks the rest).
 *
 * @param client the run's pipe client
 */
record PipeChecks(PipeFaultClient client) {

  /** The pipe's own counts of a run (see {@link #assertHolds}), as one printed line. */
  void print(FaultLedger run, List<MessageInfo> docs) {
    PipeCounts counts = counts(run, docs);
    System.out.printf(
        "FAULT %s: in-two-destinations=%d repeats-in-one-destination=%d misrouted=%d"
            + " rejected=%d eicar-on-clean=%d wrong-disposition=%d%n",
        run.scenario(),
        counts.twoDestinations(),
        counts.repeats(),
        client.misrouted(),
        client.rejected(run.keys()),
        client.eicarOnClean(),
        counts.wrongDisposition());
  }

  /**
   * The pipe's own guarantees over the files of {@code run}, whose history documents are {@code
   * docs}: one destination per file, the outlet of its verdict, nothing rejected, no EICAR on
   * clean, and each document's disposition the destination its file reached first.
   */
  void assertHolds(FaultLedger run, List<MessageInfo> docs) {
    PipeCounts counts = counts(run, docs);
    SoftAssertions soft = new SoftAssertions();
    soft.assertThat(counts.twoDestinations()).as("files in two destinations").isZero();
    soft.assertThat(client.misrouted()).as("forwards not at their verdict's outlet").isZero();
    soft.assertThat(client.rejected(run.keys())).as("files rejected").isZero();
    soft.assertThat(client.eicarOnClean()).as("EICAR on clean").isZero();
    soft.assertThat(counts.wrongDisposition())
        .as("history dispositions not where it went")
        .isZero();
    soft.assertAll();
  }

  /** Files in two destinations, forwards beyond the first, documents of the wrong disposition. */
  private record PipeCounts(int twoDestinations, int repeats, int wrongDisposition) {}

  private PipeCounts counts(FaultLedger run, List<MessageInfo> docs) {
    int twoDestinations = 0;
    int repeats = 0;
    for (String key : run.keys()) {
      List<String> arrived = client.arrivals(key);
      twoDestinations += new HashSet<>(arrived).size() > 1 ? 1 : 0;
      repeats += Math.max(0, arrived.size() - 1);
    }
    int wrongDisposition = 0;
    for (MessageInfo doc : docs) {
      List<String> arrived = client.arrivals(doc.correlationId());
      if (arrived.isEmpty() || doc.disposition() != disposition(arrived.get(0))) {
        wrongDisposition++;
      }
    }
    return new PipeCounts(twoDestinations, repeats, wrongDisposition);
  }

  private static Disposition disposition(String arrival) {
    return Map.of(
            ArtemisBrokerMain.PIPE_CLEAN, Disposition.FORWARDED_CLEAN,
            ArtemisBrokerMain.PIPE_QUARANTINE, Disposition.QUARANTINED,
            ArtemisBrokerMain.PIPE_REJECTED, Disposition.REJECTED,
            PipeFaultClient.DEAD_LETTERS, Disposition.DEAD_LETTERED)
        .get(arrival);
  }
}
