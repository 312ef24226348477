package io.github.avgateway.jms.intake;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.core.client.impl.ClientMessageImpl;
import org.apache.activemq.artemis.jms.client.ActiveMQMessage;
import org.junit.jupiter.api.Test;

class JmsTraceHeadersTest {

  private static final String TRACEPARENT =
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

  @Test
  void anArtemisMessageIsReadAsTheJmsLayerReadsIt() throws JMSException {
    ClientMessage core = core();
    core.putStringProperty("traceparent", TRACEPARENT);
    core.putIntProperty("avAttempt", 7);
    core.putBytesProperty("avOpaque", new byte[] {1, 2});
    Message received = new ActiveMQMessage(core, null);

    for (String name :
        List.of("traceparent", "tracestate", "avAttempt", "JMSXDeliveryCount", "b3")) {
      assertThat(JmsTraceHeaders.GETTER.get(received, name))
          .as(name)
          .isEqualTo(received.getStringProperty(name));
    }
    assertThat(JmsTraceHeaders.GETTER.get(received, "traceparent")).isEqualTo(TRACEPARENT);
    assertThat(JmsTraceHeaders.GETTER.get(received, "avOpaque"))
        .as("a property that is no string cannot be read: absent")
        .isNull();
  }

  @Test
  void traceContextIsWrittenDirectlyAndAnyOtherNameThroughTheJmsLayer() throws JMSException {
    Message reply = writable();

    JmsTraceHeaders.SETTER.set(reply, "traceparent", TRACEPARENT);
    JmsTraceHeaders.SETTER.set(reply, "tracestate", "caller=abc");
    JmsTraceHeaders.SETTER.set(reply, "baggage", "region=eu");
    JmsTraceHeaders.SETTER.set(reply, "x-tenant", "acme");

    assertThat(reply.getStringProperty("traceparent")).isEqualTo(TRACEPARENT);
    assertThat(reply.getStringProperty("tracestate")).isEqualTo("caller=abc");
    assertThat(reply.getStringProperty("baggage")).isEqualTo("region=eu");
    assertThat(((ActiveMQMessage) reply).getCoreMessage().containsProperty("x-tenant"))
        .as("a name JMS refuses is left out, as before")
        .isFalse();
  }

  @Test
  void anotherProvidersMessageGoesThroughJms() {
    List<String> calls = new ArrayList<>();
    Map<String, String> properties = Map.of("traceparent", TRACEPARENT);
    Message other =
        (Message)
            Proxy.newProxyInstance(
                Message.class.getClassLoader(),
                new Class<?>[] {Message.class},
                (proxy, method, args) -> {
                  calls.add(method.getName() + " " + args[0]);
                  return method.getName().equals("getStringProperty")
                      ? properties.get((String) args[0])
                      : null;
                });

    assertThat(JmsTraceHeaders.GETTER.get(other, "traceparent")).isEqualTo(TRACEPARENT);
    JmsTraceHeaders.SETTER.set(other, "traceparent", TRACEPARENT);

    assertThat(calls)
        .containsExactly("getStringProperty traceparent", "setStringProperty traceparent");
  }

  @Test
  void eachNamesCoreKeyIsMadeOnce() {
    Object key = JmsTraceHeaders.key("X-B3-TraceId");

    assertThat(key).isSameAs(JmsTraceHeaders.key("X-B3-TraceId"));
    assertThat(key.toString()).isEqualTo("X-B3-TraceId");
  }

  /** A message as the session makes it for sending: its properties writable. */
  static Message writable() throws JMSException {
    ActiveMQMessage message = new ActiveMQMessage(core(), null);
    message.clearProperties();
    return message;
  }

  private static ClientMessage core() {
    return new ClientMessageImpl(
        ActiveMQMessage.TYPE, true, 0, System.currentTimeMillis(), (byte) 4, 1024, null);
  }
}
