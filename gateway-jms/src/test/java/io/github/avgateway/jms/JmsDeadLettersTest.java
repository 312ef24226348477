package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanRequest;
import io.github.avgateway.core.model.Verdict;
import jakarta.jms.BytesMessage;
import jakarta.jms.Destination;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

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
}
