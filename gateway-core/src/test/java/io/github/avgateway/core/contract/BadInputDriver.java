package io.github.avgateway.core.contract;

import io.github.avgateway.core.fault.FaultReport.Duplicates;
import java.nio.file.Path;
import java.util.List;

/**
 * What the bad-input contract ({@link AbstractBadInputFaultContractTests}) needs from one
 * front-end's fault rig beyond a run of the mixed load: requests only the transport's own client
 * can build (a reply destination of a kind, a message that is no file), where its logs are, and how
 * its broker gives back a batch that failed. Each {@code send…} method records the request in the
 * run's ledger under a new {@link FaultDriver.Run#key()} with the answer it must get.
 */
public interface BadInputDriver {

  /** Starts a run of {@code scenario}. */
  FaultDriver.Run run(String scenario);

  /**
   * Sends a clean request whose reply destination refuses every reply (a full queue): every attempt
   * to answer it fails, so it must be dead-lettered {@code DELIVERY_LIMIT_EXCEEDED}.
   */
  void sendPoison(FaultDriver.Run run) throws Exception;

  /**
   * Sends a request carrying {@code body} and {@code filename} (null: none) whose reply destination
   * the reply-destination policy refuses (the gateway's own request queue, another service's queue,
   * …): each must be dead-lettered {@code REPLY_DESTINATION_NOT_ALLOWED}.
   *
   * @return how many such requests it sent
   */
  int sendRefusedReplyDestinations(FaultDriver.Run run, byte[] body, String filename)
      throws Exception;

  /**
   * Sends clean requests whose reply destination no longer exists (deleted before the reply): each
   * must be dead-lettered {@code REPLY_UNROUTABLE} with its verdict CLEAN.
   *
   * @return how many it sent
   */
  int sendReplyDestinationsGone(FaultDriver.Run run) throws Exception;

  /**
   * Sends a message that is no file request, carrying {@code text} (JMS: a {@code TextMessage};
   * AMQP: a bytes message without {@code message_id}): it must be dead-lettered {@code
   * MALFORMED_REQUEST}.
   */
  void sendMalformed(FaultDriver.Run run, String text) throws Exception;

  /**
   * The repeated answers a batch given back to the broker may cause ({@link
   * FaultDriver#afterClamdFault()}).
   */
  Duplicates afterFailedBatch();

  /** Every log to search for a canary: the gateway's, the broker's, clamd's (files or folders). */
  List<Path> logs();

  /**
   * Turns the gateway's own loggers up to DEBUG until the result is closed, where the driver can (a
   * gateway in the test JVM); a no-op otherwise.
   */
  AutoCloseable debugLogging();
}
