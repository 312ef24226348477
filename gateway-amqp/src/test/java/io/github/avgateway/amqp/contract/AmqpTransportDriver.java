package io.github.avgateway.amqp.contract;

import io.github.avgateway.amqp.triage.AmqpRequestMapper;
import io.github.avgateway.core.contract.ContractDeadLetter;
import io.github.avgateway.core.contract.ContractReply;
import io.github.avgateway.core.contract.ContractRequest;
import io.github.avgateway.core.contract.TransportDriver;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.wire.ScanResultJson;
import io.github.avgateway.core.wire.WireNames;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import org.springframework.amqp.core.AcknowledgeMode;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageListener;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;

/**
 * The contract suite's view of the AMQP gateway, through RabbitMQ's own client: requests are sent
 * to the gateway's request queue with a fresh {@code message_id}, replies read from a reply queue
 * of the driver's own ({@code av.reply.contract.*}), dead-letters from the gateway's dead-letter
 * queue. A malformed request is one without {@code message_id}; its recorded id is the
 * dead-letter's {@code message_id}.
 */
public final class AmqpTransportDriver implements TransportDriver {

  private final CachingConnectionFactory connectionFactory;
  private final String requestQueue;
  private final String deadLetterQueue;
  private final Function<String, Optional<MessageInfo>> history;
  private final String replyQueue = "av.reply.contract." + UUID.randomUUID();
  private final RabbitTemplate template;
  private final RabbitAdmin admin;
  private SimpleMessageListenerContainer replyContainer;
  private SimpleMessageListenerContainer deadLetterContainer;

  /**
   * @param history looks up the visible history document of a request id of this transport
   */
  public AmqpTransportDriver(
      CachingConnectionFactory connectionFactory,
      String requestQueue,
      String deadLetterQueue,
      Function<String, Optional<MessageInfo>> history) {
    this.connectionFactory = connectionFactory;
    this.requestQueue = requestQueue;
    this.deadLetterQueue = deadLetterQueue;
    this.history = history;
    this.template = new RabbitTemplate(connectionFactory);
    this.admin = new RabbitAdmin(connectionFactory);
  }

  @Override
  public String transport() {
    return AmqpRequestMapper.TRANSPORT;
  }

  @Override
  public void open(Consumer<ContractReply> replies, Consumer<ContractDeadLetter> deadLetters) {
    admin.declareQueue(new Queue(replyQueue, true, false, false));
    replyContainer = container(replyQueue, m -> replies.accept(toReply(m)));
    deadLetterContainer = container(deadLetterQueue, m -> deadLetters.accept(toDeadLetter(m)));
  }

  @Override
  public String send(ContractRequest request) {
    String id = UUID.randomUUID().toString();
    MessageProperties props = new MessageProperties();
    props.setMessageId(id);
    props.setCorrelationId(request.correlationId());
    if (request.filename() != null) {
      props.setHeader(WireNames.FILENAME, request.filename());
    }
    if (request.withReplyDestination()) {
      props.setReplyTo(replyQueue);
    }
    template.send("", requestQueue, new Message(request.body(), props));
    return id;
  }

  @Override
  public String sendMalformed(String correlationId) {
    MessageProperties props = new MessageProperties();
    props.setCorrelationId(correlationId);
    props.setReplyTo(replyQueue);
    byte[] body = "a request without message_id".getBytes(StandardCharsets.US_ASCII);
    template.send("", requestQueue, new Message(body, props));
    return null;
  }

  @Override
  public Optional<MessageInfo> history(String requestId) {
    return history.apply(requestId);
  }

  @Override
  public void close() {
    if (replyContainer != null) {
      replyContainer.stop();
    }
    if (deadLetterContainer != null) {
      deadLetterContainer.stop();
    }
    admin.deleteQueue(replyQueue);
  }

  private SimpleMessageListenerContainer container(String queue, MessageListener listener) {
    SimpleMessageListenerContainer container =
        new SimpleMessageListenerContainer(connectionFactory);
    container.setQueueNames(queue);
    container.setAcknowledgeMode(AcknowledgeMode.AUTO);
    container.setMessageListener(listener);
    container.start();
    return container;
  }

  private static ContractReply toReply(Message message) {
    MessageProperties props = message.getMessageProperties();
    return new ContractReply(
        props.getCorrelationId(),
        header(props, WireNames.VERDICT),
        header(props, WireNames.SIGNATURE),
        header(props, WireNames.REASON),
        props.getContentType(),
        ScanResultJson.decode(message.getBody()));
  }

  private static ContractDeadLetter toDeadLetter(Message message) {
    MessageProperties props = message.getMessageProperties();
    String reason = header(props, WireNames.REASON);
    return new ContractDeadLetter(
        props.getMessageId(),
        props.getCorrelationId(),
        reason == null ? null : DeadLetterReason.valueOf(reason),
        header(props, WireNames.REASON_DETAIL));
  }

  private static String header(MessageProperties props, String name) {
    Object value = props.getHeaders().get(name);
    return value == null ? null : value.toString();
  }
}
