package io.github.avgateway.core.contract;

import io.github.avgateway.core.model.MessageInfo;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * What the clean-pipe contract suite ({@link AbstractCleanPipeContractTests}) needs from one
 * front-end, its real broker and two pipes of the gateway under test: {@link Pipe#UPLOADS} and
 * {@link Pipe#BROKEN}, whose clean outlet the suite has the driver remove. Implemented with the
 * broker's own client; the suite never sees a transport type. Every message of the suite is found
 * by the correlation id the suite gave it (the gateway keeps it on forwards, replies and
 * dead-letters).
 */
public interface PipeDriver extends AutoCloseable {

  /** A pipe of the gateway under test. */
  enum Pipe {
    UPLOADS,
    BROKEN
  }

  /** Where a file may end up: one of its pipe's outlets, or the gateway's dead-letter queue. */
  enum Outlet {
    CLEAN,
    QUARANTINE,
    REJECTED,
    DEAD_LETTER
  }

  /**
   * Where a file asks its reply to go: nowhere, a destination the gateway's reply-destination
   * policy allows (the driver's own reply destination), or one it refuses (the pipe's clean outlet,
   * so that a reply sent there by mistake would be seen).
   */
  enum ReplyTo {
    NONE,
    ALLOWED,
    REFUSED
  }

  /** The gateway's payload size limit in bytes ({@code avgateway.clamd.max-size}). */
  int maxSizeBytes();

  /**
   * Puts {@code body} on {@code pipe}'s inbox as a bytes message carrying {@code correlationId},
   * each of {@code properties} as a string header or property, and the transport's own producer
   * fields that {@link #assertProducerFieldsKept} checks.
   *
   * @return the request id the gateway will record in history
   */
  String send(
      Pipe pipe, byte[] body, String correlationId, Map<String, String> properties, ReplyTo replyTo)
      throws Exception;

  /**
   * Puts on the uploads inbox, carrying {@code correlationId}, a message the gateway must refuse as
   * {@code MALFORMED_REQUEST} without forwarding it (JMS: a {@code TextMessage}; AMQP: one without
   * {@code message_id}).
   *
   * @return the request id the gateway will record, or null when only the dead-letter tells it
   *     ({@link PipeMessage#requestId()})
   */
  String sendMalformed(String correlationId) throws Exception;

  /**
   * Takes the message of {@code correlationId} off {@code outlet} of {@code pipe} (the dead-letter
   * queue for {@link Outlet#DEAD_LETTER}); fails when none came within {@code wait}.
   */
  PipeMessage take(Pipe pipe, Outlet outlet, String correlationId, Duration wait) throws Exception;

  /**
   * How many messages of {@code correlationId} are on {@code outlet} of the uploads pipe now, not
   * counting those {@link #take} took.
   */
  int count(Outlet outlet, String correlationId) throws Exception;

  /** Takes the reply to {@code correlationId} off the driver's allowed reply destination. */
  PipeMessage takeReply(String correlationId, Duration wait) throws Exception;

  /**
   * Removes the broken pipe's clean outlet queue from the broker, so that forwarding a clean file
   * there fails.
   *
   * @return the removed queue's name
   */
  String removeBrokenCleanOutlet() throws Exception;

  /**
   * Asserts that {@code forwarded}, sent by {@link #send}, still carries the transport's own
   * producer fields as they were sent (JMS: priority, type, delivery mode and an int property;
   * AMQP: content type and a header of another type).
   */
  void assertProducerFieldsKept(PipeMessage forwarded) throws Exception;

  /**
   * The history document of one request of this transport, if it is visible yet; the suite polls.
   */
  Optional<MessageInfo> history(String requestId) throws Exception;

  /** Releases the driver's connections and what it declared. */
  @Override
  void close() throws Exception;
}
