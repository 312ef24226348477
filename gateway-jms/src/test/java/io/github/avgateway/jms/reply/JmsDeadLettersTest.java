package io.github.avgateway.jms.reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanRequest;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.OriginalHeaders;
import io.github.avgateway.jms.triage.InboundRequest;
import jakarta.jms.BytesMessage;
import jakarta.jms.Destination;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

class JmsDeadLettersTest {

  private final Session session = mock(Session.class);
  private final BytesMessage letter = mock(BytesMessage.class);
  private final AtomicReference<byte[]> body = new AtomicReference<>();
  private final Destination replyTo = mock(Destination.class);

  JmsDeadLettersTest() throws Exception {
    when(session.createBytesMessage()).thenReturn(letter);
    doAnswer(
            call -> {
              body.set(call.getArgument(0));
              return null;
            })
        .when(letter)
        .writeBytes(any(byte[].class));
  }

  private InboundRequest.Malformed malformed() {
    ScanRequest request =
        new ScanRequest(
            "ID:5",
            "corr-5",
            "jms",
            "a.txt",
            null,
            null,
            Instant.EPOCH,
            false,
            ScanContent.of(new byte[0]));
    return new InboundRequest.Malformed(request, replyTo, 1, "TextMessage is not a request");
  }

  @Test
  void deadLetterCarriesReasonRequestIdAndTheCallersProperties() throws Exception {
    TextMessage original = mock(TextMessage.class);
    when(original.getPropertyNames())
        .thenReturn(Collections.enumeration(List.of("avFilename", "JMSXDeliveryCount", "tenant")));
    when(original.getObjectProperty("avFilename")).thenReturn("a.txt");
    when(original.getObjectProperty("tenant")).thenReturn(7);
    when(original.getText()).thenReturn("hello");

    JmsDeadLetters.deadLetter(
        session,
        original,
        malformed(),
        DeadLetterReason.MALFORMED_REQUEST,
        "TextMessage is not",
        Verdict.ERROR);

    verify(letter).setObjectProperty("avFilename", "a.txt");
    verify(letter).setObjectProperty("tenant", 7);
    verify(letter, never()).setObjectProperty(eq("JMSXDeliveryCount"), any());
    verify(letter).setStringProperty("avReason", "MALFORMED_REQUEST");
    verify(letter).setStringProperty("avReasonDetail", "TextMessage is not");
    verify(letter).setStringProperty("avVerdict", "ERROR");
    verify(letter).setStringProperty("avRequestId", "ID:5");
    verify(letter).setStringProperty("avOriginalType", "TextMessage");
    verify(letter).setJMSCorrelationID("corr-5");
    verify(letter).setJMSReplyTo(replyTo);
    assertThat(body.get()).asString(StandardCharsets.UTF_8).isEqualTo("hello");
  }

  @Test
  void objectMessageBodyIsDroppedNeverDeserialized() throws Exception {
    ObjectMessage original = mock(ObjectMessage.class);
    when(original.getPropertyNames()).thenReturn(Collections.emptyEnumeration());

    JmsDeadLetters.deadLetter(
        session,
        original,
        malformed(),
        DeadLetterReason.MALFORMED_REQUEST,
        "ObjectMessage",
        Verdict.ERROR);

    verify(original, never()).getObject();
    verify(original, never()).getBody(any());
    verify(letter, never()).writeBytes(any(byte[].class));
    verify(letter).setStringProperty("avOriginalType", "ObjectMessage");
  }

  @Test
  void propertiesJmsCannotHoldTravelInOriginalHeaders() throws Exception {
    TextMessage original = mock(TextMessage.class);
    String longValue = "v".repeat(OriginalHeaders.MAX_VALUE_CHARS + 1);
    when(original.getPropertyNames())
        .thenReturn(
            Collections.enumeration(
                List.of(
                    "destination-type", "content-length", "tenant", "avReason", "raw", "long")));
    when(original.getObjectProperty("destination-type")).thenReturn("ANYCAST");
    when(original.getObjectProperty("content-length")).thenReturn("5");
    when(original.getObjectProperty("tenant")).thenReturn("acme");
    when(original.getObjectProperty("avReason")).thenReturn("spoofed");
    when(original.getObjectProperty("raw")).thenReturn(new byte[] {1, 2});
    when(original.getObjectProperty("long")).thenReturn(longValue);
    ArgumentCaptor<String> json = ArgumentCaptor.forClass(String.class);

    JmsDeadLetters.deadLetter(
        session, original, malformed(), DeadLetterReason.MALFORMED_REQUEST, "x", Verdict.ERROR);

    verify(letter).setObjectProperty("tenant", "acme");
    verify(letter, never()).setObjectProperty(eq("destination-type"), any());
    verify(letter, never()).setObjectProperty(eq("avReason"), any());
    verify(letter).setStringProperty(eq("avOriginalHeaders"), json.capture());
    Map<String, Object> carried = OriginalHeaders.decode(json.getValue());
    assertThat(carried.keySet())
        .containsExactly("destination-type", "content-length", "avReason", "raw", "long");
    assertThat(carried)
        .containsEntry("destination-type", "ANYCAST")
        .containsEntry("avReason", "spoofed")
        .containsEntry("raw", Map.of("base64", "AQI=", "length", 2))
        .containsEntry(
            "long",
            Map.of(
                "truncated",
                "v".repeat(OriginalHeaders.MAX_VALUE_CHARS),
                "length",
                longValue.length()));
    verify(letter).setStringProperty("avReason", "MALFORMED_REQUEST");
  }

  @Test
  void aPropertyTheMessageRefusesIsCarriedInsteadOfFailingTheDeadLetter() throws Exception {
    TextMessage original = mock(TextMessage.class);
    when(original.getPropertyNames()).thenReturn(Collections.enumeration(List.of("picky")));
    when(original.getObjectProperty("picky")).thenReturn("value");
    doThrow(new JMSRuntimeException("AMQ139012: not a valid java identifier"))
        .when(letter)
        .setObjectProperty(eq("picky"), any());
    ArgumentCaptor<String> json = ArgumentCaptor.forClass(String.class);

    JmsDeadLetters.deadLetter(
        session, original, malformed(), DeadLetterReason.MALFORMED_REQUEST, "x", Verdict.ERROR);

    verify(letter).setStringProperty(eq("avOriginalHeaders"), json.capture());
    assertThat(OriginalHeaders.decode(json.getValue())).containsEntry("picky", "value");
  }

  @Test
  void bareDeadLetterCarriesOnlyTheGatewaysProperties() throws Exception {
    TextMessage original = mock(TextMessage.class);
    when(original.getText()).thenReturn("hello");

    JmsDeadLetters.bare(
        session, original, malformed(), DeadLetterReason.MALFORMED_REQUEST, "x", Verdict.ERROR);

    verify(original, never()).getPropertyNames();
    verify(letter, never()).setObjectProperty(any(), any());
    verify(letter, never()).setJMSReplyTo(any());
    verify(letter).setStringProperty("avReason", "MALFORMED_REQUEST");
    verify(letter).setStringProperty("avRequestId", "ID:5");
    verify(letter).setJMSCorrelationID("corr-5");
    assertThat(body.get()).asString(StandardCharsets.UTF_8).isEqualTo("hello");
  }

  @Test
  void propertyNamesJmsAccepts() {
    assertThat(DeadLetterProperties.validName("tenant_1")).isTrue();
    assertThat(DeadLetterProperties.validName("$x")).isTrue();
    for (String refused : List.of("", "destination-type", "1st", "a b", "AND", "null")) {
      assertThat(DeadLetterProperties.validName(refused)).as(refused).isFalse();
    }
  }
}
