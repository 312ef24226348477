package io.github.avgateway.core.contract;

import io.github.avgateway.core.model.MessageInfo;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What the transport contract suite needs from one front-end and its real broker. A front-end's
 * contract test implements it with its broker's own client; the suite never sees a transport type.
 * Implementations must be safe for concurrent {@code send} calls from several threads.
 */
public interface TransportDriver extends AutoCloseable {

  /** The transport name the front-end writes into history, e.g. {@code jms} or {@code amqp}. */
  String transport();

  /**
   * Starts listening. From then on every message on the driver's own reply destination is passed to
   * {@code replies}, and every message on the front-end's dead-letter destination to {@code
   * deadLetters}, each exactly once, from any thread. Called once, before the first send.
   */
  void open(Consumer<ContractReply> replies, Consumer<ContractDeadLetter> deadLetters)
      throws Exception;

  /**
   * Sends {@code request} as a bytes message to the front-end's request destination.
   *
   * @return the request id the front-end will see and record in history (JMS: the {@code
   *     JMSMessageID} the send assigned; AMQP: the {@code message_id} the driver set)
   */
  String send(ContractRequest request) throws Exception;

  /**
   * Sends a request the front-end must refuse as {@code MALFORMED_REQUEST} without reading its body
   * as a file (JMS: a {@code TextMessage}), carrying the driver's reply destination and {@code
   * correlationId}.
   *
   * @return the request id the front-end will record, or null when only the dead-letter's {@link
   *     ContractDeadLetter#requestId()} can tell it
   */
  String sendMalformed(String correlationId) throws Exception;

  /**
   * The history document of one request of this transport, if it is visible yet. The suite polls:
   * an empty answer may only mean "not visible yet".
   */
  Optional<MessageInfo> history(String requestId) throws Exception;

  /** Stops listening and releases the driver's connections. */
  @Override
  void close() throws Exception;
}
