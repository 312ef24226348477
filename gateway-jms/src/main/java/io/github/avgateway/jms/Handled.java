package io.github.avgateway.jms;

import io.github.avgateway.core.model.MessageInfo;
import java.util.concurrent.CompletableFuture;

/** What became of one request inside its consumer's transaction. */
sealed interface Handled {

  /**
   * Answered or dead-lettered (the send is part of the transaction); commit once {@code history}
   * completes.
   *
   * @param document the history document, kept so that it can be recorded again
   * @param history completes when the history store accepted {@code document}
   */
  record Done(MessageInfo document, CompletableFuture<Void> history) implements Handled {}

  /**
   * Not answerable now (the scanner failed while the intake gate is down): hold the transaction
   * until the gate is up and handle the request again, or roll back when the hold time is spent.
   *
   * @param why the gate's reason
   */
  record RetryLater(String why) implements Handled {}
}
