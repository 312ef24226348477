package io.github.avgateway.jms;

import java.util.concurrent.CompletableFuture;

/** What became of one request inside its consumer's transaction. */
sealed interface Handled {

  /**
   * Answered or dead-lettered (the send is part of the transaction); commit once {@code history}
   * completes.
   */
  record Done(CompletableFuture<Void> history) implements Handled {}

  /**
   * Not answerable now (the scanner failed while the intake gate is down): roll back, so the broker
   * delivers it again later.
   *
   * @param why the gate's reason
   */
  record RetryLater(String why) implements Handled {}
}
