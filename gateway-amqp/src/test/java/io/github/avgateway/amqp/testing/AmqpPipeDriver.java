package io.github.avgateway.amqp.testing;

import static io.github.avgateway.amqp.testing.QueueInbox.correlationId;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.contract.ContractFiles;
import io.github.avgateway.core.contract.PipeDriver;
import io.github.avgateway.core.contract.PipeMessage;
import io.github.avgateway.core.model.MessageInfo;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

/**
 * The clean-pipe contract's view of the AMQP gateway, through RabbitMQ's own client: files are
 * published to a pipe's inbox through the default exchange with a fresh {@code message_id} (the
 * request id), content type {@code text/plain} and an integer header, found again by their {@code
 * correlation_id}; a malformed file is one without {@code message_id}, whose recorded id is its
 * dead-letter's {@code message_id}; the allowed reply destination is a queue of the driver's own
 * named {@code av.reply.*}, the refused one the pipe's clean queue (outside the default {@code
 * reply_to} pattern).
 */
public final class AmqpPipeDriver implements PipeDriver {

  private static final Duration WAIT = Duration.ofSeconds(30);

  private final CachingConnectionFactory connection;
  private final RabbitTemplate rabbit;
  private final RabbitAdmin admin;
  private final Map<Pipe, List<String>> pipes;
  private final int maxSizeBytes;
  private final Function<String, Optional<MessageInfo>> history;
  private final String replyQueue = "av.reply.pipe." + UUID.randomUUID();
  private final Map<Pipe, Map<Outlet, QueueInbox>> outlets = new EnumMap<>(Pipe.class);
  private final QueueInbox replies;
  private final Set<Message> taken = Collections.newSetFromMap(new IdentityHashMap<>());

  /**
   * @param pipes each pipe's queues: inbox, clean, quarantine, rejected
   * @param history looks up the visible history document of a request id of this transport
   */
  public AmqpPipeDriver(
      Map<Pipe, List<String>> pipes,
      String deadLetterQueue,
      int maxSizeBytes,
      Function<String, Optional<MessageInfo>> history) {
    this.connection = RabbitIt.connectionFactory();
    this.rabbit = new RabbitTemplate(connection);
    this.admin = new RabbitAdmin(connection);
    this.pipes = Map.copyOf(pipes);
    this.maxSizeBytes = maxSizeBytes;
    this.history = history;
    QueueInbox deadLetters = new QueueInbox(rabbit, deadLetterQueue);
    for (Pipe pipe : Pipe.values()) {
      List<String> queues = pipes.get(pipe);
      Map<Outlet, QueueInbox> byOutlet = new EnumMap<>(Outlet.class);
      byOutlet.put(Outlet.CLEAN, new QueueInbox(rabbit, queues.get(1)));
      byOutlet.put(Outlet.QUARANTINE, new QueueInbox(rabbit, queues.get(2)));
      byOutlet.put(Outlet.REJECTED, new QueueInbox(rabbit, queues.get(3)));
      byOutlet.put(Outlet.DEAD_LETTER, deadLetters);
      outlets.put(pipe, byOutlet);
    }
    admin.declareQueue(new Queue(replyQueue, false, false, false));
    this.replies = new QueueInbox(rabbit, replyQueue);
  }

  @Override
  public int maxSizeBytes() {
    return maxSizeBytes;
  }

  @Override
  public String send(
      Pipe pipe,
      byte[] body,
      String correlationId,
      Map<String, String> properties,
      ReplyTo replyTo) {
    MessageProperties props = new MessageProperties();
    String id = UUID.randomUUID().toString();
    props.setMessageId(id);
    props.setCorrelationId(correlationId);
    props.setContentType("text/plain");
    props.setHeader("attempt", 3);
    properties.forEach(props::setHeader);
    switch (replyTo) {
      case NONE -> {}
      case ALLOWED -> props.setReplyTo(replyQueue);
      case REFUSED -> props.setReplyTo(pipes.get(pipe).get(1));
    }
    rabbit.send("", pipes.get(pipe).get(0), new Message(body, props));
    return id;
  }

  @Override
  public String sendMalformed(String correlationId) {
    MessageProperties props = new MessageProperties();
    props.setCorrelationId(correlationId);
    byte[] body = "a pipe message without message_id".getBytes(StandardCharsets.US_ASCII);
    rabbit.send("", pipes.get(Pipe.UPLOADS).get(0), new Message(body, props));
    return null;
  }

  @Override
  public PipeMessage take(Pipe pipe, Outlet outlet, String correlationId, Duration wait) {
    return take(outlets.get(pipe).get(outlet), correlationId, wait);
  }

  @Override
  public int count(Outlet outlet, String correlationId) {
    synchronized (taken) {
      return (int)
          outlets.get(Pipe.UPLOADS).get(outlet).matching(correlationId(correlationId)).stream()
              .filter(message -> !taken.contains(message))
              .count();
    }
  }

  @Override
  public PipeMessage takeReply(String correlationId, Duration wait) {
    return take(replies, correlationId, wait);
  }

  /**
   * One file through the broken pipe first, so that the gateway's publisher connection is open: the
   * topology is declared again on every new connection, which would bring the deleted queue back.
   */
  @Override
  public String removeBrokenCleanOutlet() {
    String first = "routable-" + UUID.randomUUID();
    send(Pipe.BROKEN, ContractFiles.clean(System.nanoTime()), first, Map.of(), ReplyTo.NONE);
    take(Pipe.BROKEN, Outlet.CLEAN, first, WAIT);
    String queue = pipes.get(Pipe.BROKEN).get(1);
    admin.deleteQueue(queue);
    return queue;
  }

  @Override
  public void assertProducerFieldsKept(PipeMessage forwarded) {
    MessageProperties props = ((Message) forwarded.transportMessage()).getMessageProperties();
    assertThat(props.getContentType()).isEqualTo("text/plain");
    assertThat(props.getHeaders()).containsEntry("attempt", 3);
  }

  @Override
  public Optional<MessageInfo> history(String requestId) {
    return history.apply(requestId);
  }

  @Override
  public void close() {
    admin.deleteQueue(replyQueue);
    connection.destroy();
  }

  private PipeMessage take(QueueInbox inbox, String key, Duration wait) {
    Message message = inbox.await(correlationId(key).and(m -> !isTaken(m)), wait);
    synchronized (taken) {
      taken.add(message);
    }
    MessageProperties props = message.getMessageProperties();
    Map<String, String> strings = new HashMap<>();
    props
        .getHeaders()
        .forEach((name, value) -> {
          if (value != null) {
            strings.put(name, value.toString());
          }
        });
    return new PipeMessage(message.getBody(), strings, props.getMessageId(), message);
  }

  private boolean isTaken(Message message) {
    synchronized (taken) {
      return taken.contains(message);
    }
  }
}
