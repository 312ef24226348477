package io.github.avgateway.jms.intake;

import io.github.avgateway.core.model.MessageInfo;

/** What became of one request inside its consumer's transaction. */
public sealed interface Handled {

  /**
   * Answered or dead-lettered (the send is part of the transaction); the batch records {@code
   * document} in its history message and commits it with the reply.
   *
   * @param document the request's history document
   */
  record Done(MessageInfo document) implements Handled {}

  /**
   * Not answerable now (the scanner failed while the intake gate is down): hold the transaction
   * until the gate is up and handle the request again, or roll back when the hold time is spent.
   *
   * @param why the gate's reason
   */
  record RetryLater(String why) implements Handled {}
}
