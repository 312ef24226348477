package io.github.avgateway.core.contract;

import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.testing.PrivateClamd;

/**
 * What the pipe-fault contract ({@link AbstractPipeFaultContractTests}) needs from one front-end's
 * fault rig: a gateway JVM with one clean-pipe on the rig's broker, killable and restartable, its
 * clamd and its broker. A {@link FaultDriver.Run} of this driver puts files on the pipe's inbox and
 * counts a file's forward (or dead-letter) as its answer; its {@link FaultDriver.Run#finish()} also
 * asserts the pipe's own guarantees (one outlet per file, the outlet of its verdict and its history
 * disposition, no EICAR on clean).
 */
public interface PipeFaultDriver {

  /** Starts a run of {@code scenario} on the pipe. */
  FaultDriver.Run run(String scenario);

  /** The rig's clamd. */
  PrivateClamd clamd();

  /** How many times the pipe gateway has paused its intake so far (its log). */
  long intakePauses() throws Exception;

  /** Files of {@code run} that reached the pipe's rejected outlet so far. */
  long rejected(FaultDriver.Run run);

  /**
   * Kills ({@code SIGKILL}) the pipe gateway while it holds a batch of the inbox open, keeping
   * {@code run}'s files coming meanwhile if it needs to.
   *
   * @return how many inbox messages the broker counted delivered and uncommitted just before the
   *     kill, or -1 where the driver cannot tell
   */
  long killGatewayMidBatch(FaultDriver.Run run) throws Exception;

  /** Starts the killed pipe gateway again and waits until it consumes. */
  void restartGateway() throws Exception;

  /**
   * Kills the broker ({@code SIGKILL}), starts it on its own data, waits until the gateway
   * consumes.
   */
  void killAndRestartBroker() throws Exception;

  /**
   * The repeats a batch given back to the broker may cause ({@link FaultDriver#afterClamdFault()}).
   */
  Duplicates afterFailedBatch();
}
