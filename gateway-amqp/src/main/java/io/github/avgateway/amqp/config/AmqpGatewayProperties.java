package io.github.avgateway.amqp.config;

import io.github.avgateway.core.pipe.Pipe;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the AMQP front-end ({@code avgateway.amqp.*}). The broker connection itself (host,
 * port, credentials, virtual host, TLS) is Spring Boot's {@code spring.rabbitmq.*}; nothing here is
 * a secret.
 *
 * @param enabled whether the AMQP front-end runs at all
 * @param requestQueue the durable queue requests are read from
 * @param queueType {@code QUORUM} (the default; honours the delivery limit) or {@code CLASSIC}
 * @param deadLetterExchange the direct exchange dead-letters go to, from the broker and the gateway
 * @param deadLetterQueue the durable queue bound to the dead-letter exchange
 * @param deliveryLimit deliveries after the first that a request may have; on the delivery past
 *     them the gateway dead-letters it as {@code DELIVERY_LIMIT_EXCEEDED}, and the quorum queue's
 *     own {@code x-delivery-limit} (the same number) dead-letters it should even that fail
 * @param consumers concurrent consumers, each with its own channel
 * @param prefetch unacknowledged requests the broker may hand to one consumer; at least twice
 *     {@code batchSize} lets a consumer scan its next batch while the last one waits for its
 *     history confirm
 * @param batchSize most requests one consumer handles, replies to and acknowledges together
 * @param batchWait how long a consumer gathers a batch: it takes no more requests once this has
 *     passed since it began waiting, nor after waiting this long for one more, so a request waits
 *     at most about twice this for its batch to start, and under light load every batch is one
 *     request
 * @param replyToPattern the {@code reply_to} values accepted (whole-value regular expression); the
 *     default accepts direct reply-to, server-named queues ({@code amq.gen-*}, RabbitMQ's RPC
 *     pattern) and queues named {@code av.reply.*}
 * @param defaultReplyQueue where replies go when a request has no {@code reply_to}; empty for none
 * @param confirmTimeout how long a reply or dead-letter may wait for the broker's confirm
 * @param historyTimeout how long a batch may wait for the broker's confirm of its history message
 * @param intakeCheckInterval how often consumers check whether clamd and the history backlog can
 *     serve (a check reads the gates' current state, so it is cheap; it bounds how late intake
 *     resumes), and how often a full history backlog's depth is read
 * @param pauseHoldLimit how long a consumer holds its unacknowledged batch while intake is paused
 *     before it requeues it, and the history indexer its messages while the store refuses; keep it
 *     below RabbitMQ's {@code consumer_timeout}
 * @param recoveryInterval pause between attempts to reconnect consumers after the broker was lost
 * @param declareTopology whether the gateway declares its queues and exchange at connect time
 * @param pipes clean-pipes ({@code pipes[i].inbox}, {@code .clean}, {@code .quarantine}, {@code
 *     .rejected}): files put on an inbox are forwarded to one of the three by their verdict; none
 *     by default
 */
@Validated
@ConfigurationProperties("avgateway.amqp")
public record AmqpGatewayProperties(
    @DefaultValue("true") boolean enabled,
    @DefaultValue("av.scan.requests") @NotBlank String requestQueue,
    @DefaultValue("QUORUM") @NotNull QueueType queueType,
    @DefaultValue("av.scan.dlx") @NotBlank String deadLetterExchange,
    @DefaultValue("av.scan.dead-letters") @NotBlank String deadLetterQueue,
    @DefaultValue("20") @Min(1) @Max(1000) int deliveryLimit,
    @DefaultValue("4") @Min(1) @Max(256) int consumers,
    @DefaultValue("32") @Min(1) @Max(65535) int prefetch,
    @DefaultValue("16") @Min(1) @Max(1000) int batchSize,
    @DefaultValue("5ms") @NotNull Duration batchWait,
    @DefaultValue("amq\\.rabbitmq\\.reply-to\\..+|amq\\.gen-.+|av\\.reply\\..+") @NotBlank
        String replyToPattern,
    @DefaultValue("") String defaultReplyQueue,
    @DefaultValue("30s") @NotNull Duration confirmTimeout,
    @DefaultValue("60s") @NotNull Duration historyTimeout,
    @DefaultValue("100ms") @NotNull Duration intakeCheckInterval,
    @DefaultValue("10m") @NotNull Duration pauseHoldLimit,
    @DefaultValue("5s") @NotNull Duration recoveryInterval,
    @DefaultValue("true") boolean declareTopology,
    List<Pipe> pipes) {

  public AmqpGatewayProperties {
    pipes = pipes == null ? List.of() : List.copyOf(pipes);
  }

  /** The kind of request queue the gateway declares. */
  public enum QueueType {
    /**
     * Replicated, durable, counts deliveries ({@code x-delivery-count}, {@code x-delivery-limit}).
     */
    QUORUM,
    /** A durable classic queue: no delivery count, so no delivery limit. */
    CLASSIC
  }

  /** The compiled {@link #replyToPattern()}. */
  public Pattern compiledReplyToPattern() {
    return Pattern.compile(replyToPattern);
  }

  /** The default reply queue, or null when none is configured. */
  public String defaultReplyQueueOrNull() {
    return defaultReplyQueue == null || defaultReplyQueue.isBlank() ? null : defaultReplyQueue;
  }

  @AssertTrue(message = "reply-to-pattern must be a valid regular expression")
  boolean isReplyToPatternValid() {
    if (replyToPattern == null) {
      return true;
    }
    try {
      compiledReplyToPattern();
      return true;
    } catch (PatternSyntaxException e) {
      return false;
    }
  }

  @AssertTrue(message = "prefetch must be at least batch-size, or batches never fill")
  boolean isPrefetchAtLeastBatchSize() {
    return prefetch >= batchSize;
  }

  @AssertTrue(message = "the dead-letter queue must differ from the request queue")
  boolean isDeadLetterQueueDistinct() {
    return requestQueue == null || !requestQueue.equals(deadLetterQueue);
  }

  @AssertTrue(
      message =
          "a pipe's queues must differ from the request queue and the dead-letter queue, and no"
              + " two pipes may share an inbox")
  boolean isPipesDistinct() {
    Set<String> inboxes = new HashSet<>();
    for (Pipe pipe : pipes) {
      if (!inboxes.add(pipe.inbox())) {
        return false;
      }
      for (String queue : pipeQueues(pipe)) {
        if (queue.equals(requestQueue) || queue.equals(deadLetterQueue)) {
          return false;
        }
      }
    }
    return true;
  }

  /** Every queue of every pipe: inboxes and outlets. */
  public Set<String> pipeQueueNames() {
    Set<String> names = new HashSet<>();
    pipes.forEach(pipe -> names.addAll(pipeQueues(pipe)));
    return names;
  }

  private static List<String> pipeQueues(Pipe pipe) {
    return List.of(pipe.inbox(), pipe.clean(), pipe.quarantine(), pipe.rejected());
  }
}
