package io.github.avgateway.jms.config;

import io.github.avgateway.core.pipe.Pipe;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the JMS front-end ({@code avgateway.jms.*}). The password never appears in {@link
 * #toString()}.
 *
 * @param mode EMBEDDED runs Artemis in this JVM; EXTERNAL connects to a broker at {@code url}
 * @param url where outside clients connect: the embedded broker's acceptor (the protocols of {@link
 *     Embedded#protocols()}), or the external broker the gateway connects to
 * @param user user name for the external broker, or null
 * @param password password for the external broker, or null
 * @param embedded settings of the embedded broker (ignored in EXTERNAL mode)
 * @param requestQueue the queue requests arrive on
 * @param deadLetterQueue where requests that cannot be answered go, with the reason as property
 * @param defaultReplyQueue where replies go when a request has no JMSReplyTo; null for none
 * @param replyQueuePattern the named reply queues accepted (whole-name regular expression);
 *     temporary queues are always accepted, the gateway's own queues and topics never
 * @param consumers concurrent consumers, each with its own connection and transacted session
 * @param batchSize at most this many requests per transaction; a batch takes only what is already
 *     waiting and never waits to fill
 * @param consumerWindowSize how many bytes of requests the broker may push ahead into each
 *     consumer's buffer before the consumer takes them (Artemis' {@code consumerWindowSize}, which
 *     this setting overrides in the URL). A buffered request counts as delivered, and when a
 *     connection dies the broker cannot tell it from those the gateway took: every broker
 *     connection failure adds a delivery attempt to it, so a flapping connection could dead-letter
 *     requests the gateway never handled as {@code DELIVERY_LIMIT_EXCEEDED}. Unset, it is 0 (no
 *     buffering: a consumer fetches each request when it takes it) with an EXTERNAL broker, and
 *     Artemis' own default (1 MiB) with the EMBEDDED one, whose in-VM connections cannot fail while
 *     the gateway runs
 * @param receiveTimeout how long an idle consumer blocks for the first request of a batch
 * @param maxDeliveryAttempts a request delivered more often is dead-lettered as {@code
 *     DELIVERY_LIMIT_EXCEEDED}
 * @param redeliveryDelay delay before a rolled-back request is delivered again (embedded broker)
 * @param pausePollInterval how often a paused consumer asks the intake gate again
 * @param pauseHoldTime how long a batch that an intake pause (clamd down, history backlog full)
 *     caught in flight keeps its transaction open, waiting for the gate to reopen, before it rolls
 *     back; a pause shorter than this costs the batch's requests no delivery attempt
 * @param tls TLS of the CORE connection at {@code url} (see {@link Tls})
 * @param pipes clean-pipes, each its own intake: files put on {@code pipes[i].inbox} are scanned
 *     and forwarded, unchanged apart from the gateway's properties, to {@code pipes[i].clean}
 *     (CLEAN), {@code pipes[i].quarantine} (INFECTED) or {@code pipes[i].rejected} (UNSCANNABLE,
 *     ERROR); each pipe has {@code consumers} consumers of its own. None by default
 * @param intake what takes the requests off the queues: LISTENER_CONTAINER (or {@code
 *     listener-container}, the default), Spring JMS listener containers (batches of what is
 *     waiting, one transaction each); CONSUMERS, the gateway's own consumer threads with the same
 *     batches, transactions, history and holds (docs/architecture.md, "The JMS intake")
 */
@Validated
@ConfigurationProperties("avgateway.jms")
public record JmsProperties(
    @DefaultValue("EMBEDDED") @NotNull BrokerMode mode,
    @DefaultValue("tcp://127.0.0.1:61616") @NotBlank String url,
    String user,
    String password,
    @DefaultValue @NotNull @Valid Embedded embedded,
    @DefaultValue("av.scan.requests") @NotBlank String requestQueue,
    @DefaultValue("av.scan.dead-letters") @NotBlank String deadLetterQueue,
    String defaultReplyQueue,
    @DefaultValue("av\\.reply\\..+") @NotBlank String replyQueuePattern,
    @DefaultValue("4") @Min(1) @Max(256) int consumers,
    @DefaultValue("32") @Min(1) @Max(1000) int batchSize,
    DataSize consumerWindowSize,
    @DefaultValue("1s") @NotNull Duration receiveTimeout,
    @DefaultValue("5") @Min(1) @Max(1000) int maxDeliveryAttempts,
    @DefaultValue("1s") @NotNull Duration redeliveryDelay,
    @DefaultValue("100ms") @NotNull Duration pausePollInterval,
    @DefaultValue("5m") @NotNull Duration pauseHoldTime,
    @DefaultValue @NotNull @Valid Tls tls,
    List<Pipe> pipes,
    @DefaultValue("LISTENER_CONTAINER") @NotNull Intake intake) {

  public JmsProperties {
    pipes = pipes == null ? List.of() : List.copyOf(pipes);
  }

  /** What takes the requests off the queues. */
  public enum Intake {
    /** The gateway's own consumer threads ({@code intake.BatchConsumer}). */
    CONSUMERS,
    /** Spring JMS listener containers ({@code intake.BatchListenerContainer}). */
    LISTENER_CONTAINER
  }

  /** Where the broker runs. */
  public enum BrokerMode {
    EMBEDDED,
    EXTERNAL
  }

  /**
   * Journal implementation of the embedded broker. NIO is the default: AIO needs Artemis' native
   * library on {@code java.library.path}, and with Artemis 2.56 on JDK 25 it failed here with a
   * critical IO error under load (see gateway-jms/README.md).
   */
  public enum JournalMode {
    NIO,
    AIO,
    MAPPED
  }

  /** A client protocol the embedded broker's acceptor at {@code url} speaks. */
  public enum ClientProtocol {
    /** Artemis' own protocol: its JMS client, this gateway's {@code AvScanClient}. */
    CORE,
    /** AMQP 1.0 (Qpid JMS, Qpid Proton, .NET AMQP.Net Lite, rhea); never AMQP 0-9-1. */
    AMQP,
    /** STOMP 1.0 to 1.2. */
    STOMP
  }

  /**
   * The embedded broker.
   *
   * @param dataDir journal, bindings, large messages and paging live under it
   * @param persistent false keeps messages in memory only (tests)
   * @param journal journal implementation
   * @param autoCreateQueues whether sending to (or subscribing to) an unknown queue creates it;
   *     when false (the default) a reply to an unknown queue outside {@code av.reply.*} is
   *     dead-lettered as {@code REPLY_UNROUTABLE}
   * @param autoCreateReplyQueues whether a queue named {@code av.reply.*} is created when a caller
   *     subscribes to it (or a reply is sent to it) and removed a minute after it was last used,
   *     with what it still holds: STOMP callers have no temporary queues and name their reply queue
   *     so. When false, a reply to such a queue that does not exist is dead-lettered as {@code
   *     REPLY_UNROUTABLE}
   * @param protocols the client protocols of the acceptor at {@code url}, all on its one port
   * @param minDiskFree the broker blocks every producer (callers, and the gateway's replies and
   *     history) while less than this is free on the disk of {@code dataDir}, and health {@code
   *     embeddedBroker} is DOWN; Artemis's own default, a share of the disk (90 %), would block a
   *     large disk with many gigabytes still free. {@code 0} turns the check off
   */
  public record Embedded(
      @DefaultValue("data/artemis") @NotNull Path dataDir,
      @DefaultValue("true") boolean persistent,
      @DefaultValue("NIO") @NotNull JournalMode journal,
      @DefaultValue("false") boolean autoCreateQueues,
      @DefaultValue("true") boolean autoCreateReplyQueues,
      @DefaultValue("CORE,AMQP,STOMP") @NotEmpty List<ClientProtocol> protocols,
      @DefaultValue(DEFAULT_MIN_DISK_FREE) @NotNull DataSize minDiskFree) {

    /**
     * The default of {@code min-disk-free}; the fault suite's external Artemis and the harness's
     * echo broker use it too.
     */
    public static final String DEFAULT_MIN_DISK_FREE = "2GB";

    public Embedded {
      protocols = protocols == null ? null : List.copyOf(protocols);
    }

    @AssertTrue(message = "embedded.min-disk-free must not be negative")
    boolean isMinDiskFreeValid() {
      return minDiskFree == null || !minDiskFree.isNegative();
    }
  }

  /** The compiled {@link #replyQueuePattern()}. */
  public Pattern compiledReplyQueuePattern() {
    return Pattern.compile(replyQueuePattern);
  }

  @AssertTrue(message = "reply-queue-pattern must be a valid regular expression")
  boolean isReplyQueuePatternValid() {
    if (replyQueuePattern == null) {
      return true;
    }
    try {
      compiledReplyQueuePattern();
      return true;
    } catch (PatternSyntaxException e) {
      return false;
    }
  }

  @AssertTrue(message = "consumer-window-size must be between 0 B and 2 GiB - 1 B")
  boolean isConsumerWindowSizeValid() {
    return consumerWindowSize == null
        || (consumerWindowSize.toBytes() >= 0 && consumerWindowSize.toBytes() <= Integer.MAX_VALUE);
  }

  /**
   * TLS on the connection at {@code url}. EMBEDDED: the broker's acceptor serves TLS with {@code
   * key-store}, for every protocol it speaks (CORE clients then connect with {@code
   * sslEnabled=true} and a trust store, AMQP 1.0 and STOMP clients over TLS to the same port; the
   * gateway's own consumers stay in-VM). EXTERNAL: the gateway connects with TLS, trusting {@code
   * trust-store}. Passwords never appear in {@link #toString()} nor in logs.
   *
   * @param enabled whether the connection at {@code url} uses TLS
   * @param keyStore the broker's key store (PKCS12 or JKS), EMBEDDED mode
   * @param keyStorePassword its password
   * @param trustStore the trust store the gateway checks the broker's certificate with, EXTERNAL
   *     mode; empty for the JVM's default
   * @param trustStorePassword its password
   */
  public record Tls(
      @DefaultValue("false") boolean enabled,
      @DefaultValue("") String keyStore,
      @DefaultValue("") String keyStorePassword,
      @DefaultValue("") String trustStore,
      @DefaultValue("") String trustStorePassword) {

    @Override
    public String toString() {
      return "Tls[enabled=%s, keyStore=%s, keyStorePassword=%s, trustStore=%s, trustStorePassword=%s]"
          .formatted(
              enabled, keyStore, mask(keyStorePassword), trustStore, mask(trustStorePassword));
    }
  }

  private static String mask(String secret) {
    return secret == null || secret.isEmpty() ? secret : "******";
  }

  @Override
  public String toString() {
    return "JmsProperties[mode=%s, url=%s, user=%s, password=%s, embedded=%s, requestQueue=%s, deadLetterQueue=%s, defaultReplyQueue=%s, replyQueuePattern=%s, consumers=%d, batchSize=%d, consumerWindowSize=%s, receiveTimeout=%s, maxDeliveryAttempts=%d, redeliveryDelay=%s, pausePollInterval=%s, pauseHoldTime=%s, tls=%s, pipes=%s, intake=%s]"
        .formatted(
            mode,
            url,
            user,
            mask(password),
            embedded,
            requestQueue,
            deadLetterQueue,
            defaultReplyQueue,
            replyQueuePattern,
            consumers,
            batchSize,
            consumerWindowSize,
            receiveTimeout,
            maxDeliveryAttempts,
            redeliveryDelay,
            pausePollInterval,
            pauseHoldTime,
            tls,
            pipes,
            intake);
  }
}
