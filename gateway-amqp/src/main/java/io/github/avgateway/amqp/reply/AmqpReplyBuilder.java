package io.github.avgateway.amqp.reply;

import io.github.avgateway.amqp.triage.AmqpRequestMapper;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.pipe.ForwardHeaders;
import io.github.avgateway.core.wire.ScanResultJson;
import io.github.avgateway.core.wire.WireNames;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;

/**
 * Builds the messages the gateway publishes. A reply carries {@code correlation_id} (the request's
 * correlation id, else its request id), headers {@code avVerdict}, {@code avSignature} (when
 * INFECTED) and {@code avReason} (when UNSCANNABLE or ERROR), and the result as UTF-8 JSON. A
 * dead-letter is the request itself (body and properties, but no {@code user_id} the broker would
 * refuse from the gateway's connection, and no expiration; headers as {@link DeadLetterHeaders}
 * copies them) plus {@code avReason}, {@code avReasonDetail} and the verdict it got; its {@code
 * message_id} is the id history records. A {@linkplain #bareDeadLetter bare} dead-letter has the
 * body, correlation id and those gateway headers only: the fallback when the full one failed.
 *
 * <p>A {@linkplain #forward forwarded} clean-pipe message is the original: the same body, the
 * producer's properties (content type and encoding, message and correlation id, reply-to, priority,
 * timestamp, type, app id) and headers, made persistent, plus the gateway's headers ({@link
 * ForwardHeaders}), which replace any of those names the producer set. Not carried: {@code user_id}
 * (RabbitMQ refuses one that is not the publishing connection's user), {@code expiration}, the
 * broker's headers of earlier deliveries ({@code x-delivery-count}, {@code x-death}, ...) and
 * {@code CC} / {@code BCC}, with which RabbitMQ would route copies of the file to other queues.
 */
public final class AmqpReplyBuilder {

  public Message reply(ScanResult result) {
    MessageProperties props = new MessageProperties();
    props.setContentType(WireNames.JSON_CONTENT_TYPE);
    props.setContentEncoding(StandardCharsets.UTF_8.name());
    props.setCorrelationId(result.correlationId());
    props.setDeliveryMode(MessageDeliveryMode.PERSISTENT);
    props.setHeader(WireNames.VERDICT, result.verdict().name());
    if (result.firstSignature() != null) {
      props.setHeader(WireNames.SIGNATURE, result.firstSignature());
    }
    if (result.reason() != null) {
      props.setHeader(WireNames.REASON, result.reason().name());
    }
    return new Message(ScanResultJson.encode(result), props);
  }

  public Message deadLetter(
      Message request, ScanResult result, DeadLetterReason reason, String detail) {
    MessageProperties in = request.getMessageProperties();
    MessageProperties out = new MessageProperties();
    DeadLetterHeaders.copy(in.getHeaders(), out);
    out.setContentType(in.getContentType());
    out.setContentEncoding(in.getContentEncoding());
    out.setReplyTo(in.getReplyTo());
    out.setAppId(in.getAppId());
    out.setType(in.getType());
    out.setTimestamp(in.getTimestamp());
    return withGatewayHeaders(request, out, result, reason, detail);
  }

  /** The pipe message {@code original} as forwarded with {@code result}. */
  public Message forward(Message original, ScanResult result) {
    MessageProperties in = original.getMessageProperties();
    MessageProperties out = new MessageProperties();
    for (Map.Entry<String, Object> header : in.getHeaders().entrySet()) {
      if (forwardsHeader(header.getKey())) {
        out.setHeader(header.getKey(), header.getValue());
      }
    }
    ForwardHeaders.of(result).forEach(out::setHeader);
    out.setContentType(in.getContentType());
    out.setContentEncoding(in.getContentEncoding());
    out.setMessageId(in.getMessageId());
    out.setCorrelationId(in.getCorrelationId());
    out.setReplyTo(in.getReplyTo());
    out.setPriority(in.getPriority());
    out.setTimestamp(in.getTimestamp());
    out.setType(in.getType());
    out.setAppId(in.getAppId());
    out.setDeliveryMode(MessageDeliveryMode.PERSISTENT);
    byte[] body = original.getBody() == null ? new byte[0] : original.getBody();
    return new Message(body, out);
  }

  private static boolean forwardsHeader(String name) {
    return !ForwardHeaders.NAMES.contains(name)
        && !DeadLetterHeaders.ROUTING_HEADERS.contains(name)
        && !name.equals(AmqpRequestMapper.DELIVERY_COUNT_HEADER)
        && !name.startsWith("x-death")
        && !name.startsWith("x-first-death-")
        && !name.startsWith("x-last-death-");
  }

  /** The dead-letter with the body, correlation id and the gateway's own headers only. */
  public Message bareDeadLetter(
      Message request, ScanResult result, DeadLetterReason reason, String detail) {
    return withGatewayHeaders(request, new MessageProperties(), result, reason, detail);
  }

  private static Message withGatewayHeaders(
      Message request,
      MessageProperties out,
      ScanResult result,
      DeadLetterReason reason,
      String detail) {
    out.setCorrelationId(request.getMessageProperties().getCorrelationId());
    out.setMessageId(result.requestId());
    out.setDeliveryMode(MessageDeliveryMode.PERSISTENT);
    out.setHeader(WireNames.REASON, reason.name());
    if (detail != null) {
      out.setHeader(WireNames.REASON_DETAIL, detail);
    }
    out.setHeader(WireNames.VERDICT, result.verdict().name());
    byte[] body = request.getBody() == null ? new byte[0] : request.getBody();
    return new Message(body, out);
  }
}
