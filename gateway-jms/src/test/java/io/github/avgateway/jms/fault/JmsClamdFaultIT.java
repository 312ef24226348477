package io.github.avgateway.jms.fault;

import io.github.avgateway.core.fault.FaultReport.Duplicates;
import org.junit.jupiter.api.Test;

/**
 * clamd faults under load (issue 8, scenarios 7–10) with the gateway on external Artemis: every
 * confirmed request answered once, never CLEAN unless clamd scanned it, one history document each.
 */
class JmsClamdFaultIT extends AbstractJmsFaultIT {

  @Test
  void clamdStoppedAndStarted() throws Exception {
    outageUnderLoad("clamd-stop-start", env.rig.clamd::stop, env.rig.clamd::launch)
        .assertHolds(Duplicates.EXPLAINED_BY_REDELIVERY);
  }

  @Test
  void clamdFrozenBySigstopThenResumed() throws Exception {
    outageUnderLoad("clamd-sigstop", env.rig.clamd::freeze, env.rig.clamd::thaw)
        .assertHolds(Duplicates.EXPLAINED_BY_REDELIVERY);
  }

  @Test
  void clamdConnectionsCutMidStream() {
    FaultRun run = new FaultRun(env, "clamd-connection-cut");
    run.mixed(200);
    for (int cut = 1; cut <= 3; cut++) {
      run.awaitAnswered(cut * 30L);
      env.rig.clamdProxy.cutAll();
    }
    run.finish().assertHolds(Duplicates.EXPLAINED_BY_REDELIVERY);
  }

  @Test
  void clamdReloadUnderLoad() {
    FaultRun run = new FaultRun(env, "clamd-reload");
    run.mixed(200);
    for (int reload = 1; reload <= 2; reload++) {
      run.awaitAnswered(reload * 40L);
      String answer = env.rig.clamd.reload();
      System.out.println("clamd answered RELOAD with " + answer);
    }
    run.finish().assertHolds(Duplicates.FORBIDDEN).assertAsExpected();
  }
}
