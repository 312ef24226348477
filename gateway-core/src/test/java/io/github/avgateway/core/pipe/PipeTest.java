package io.github.avgateway.core.pipe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.Verdict;
import org.junit.jupiter.api.Test;

class PipeTest {

  @Test
  void eachVerdictHasOneOutletAndOnlyCleanGoesToClean() {
    assertThat(PipeOutlet.forVerdict(Verdict.CLEAN)).isEqualTo(PipeOutlet.CLEAN);
    assertThat(PipeOutlet.forVerdict(Verdict.INFECTED)).isEqualTo(PipeOutlet.QUARANTINE);
    assertThat(PipeOutlet.forVerdict(Verdict.UNSCANNABLE)).isEqualTo(PipeOutlet.REJECTED);
    assertThat(PipeOutlet.forVerdict(Verdict.ERROR)).isEqualTo(PipeOutlet.REJECTED);
    assertThat(PipeOutlet.QUARANTINE.disposition()).isEqualTo(Disposition.QUARANTINED);
  }

  @Test
  void destinationsFollowTheOutlet() {
    Pipe pipe =
        new Pipe("av.inbox.uploads", "uploads.clean", " uploads.quarantine ", "uploads.rej");

    assertThat(pipe.destination(PipeOutlet.CLEAN)).isEqualTo("uploads.clean");
    assertThat(pipe.destination(PipeOutlet.QUARANTINE)).isEqualTo("uploads.quarantine");
    assertThat(pipe.destination(PipeOutlet.REJECTED)).isEqualTo("uploads.rej");
  }

  @Test
  void aPipeNeedsFourDifferentQueues() {
    assertThatThrownBy(() -> new Pipe("in", "out", "out", "rej"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("four different queues");
    assertThatThrownBy(() -> new Pipe("in", "clean", "q", " "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rejected");
  }
}
