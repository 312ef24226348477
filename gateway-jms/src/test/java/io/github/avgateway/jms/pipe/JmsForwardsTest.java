package io.github.avgateway.jms.pipe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanRequest;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.OriginalHeaders;
import io.github.avgateway.jms.triage.InboundRequest;
import jakarta.jms.BytesMessage;
import jakarta.jms.Destination;
import jakarta.jms.Session;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

class JmsForwardsTest {

  private final Session session = mock(Session.class);
  private final BytesMessage forward = mock(BytesMessage.class);
  private final BytesMessage original = mock(BytesMessage.class);
  private final Destination replyTo = mock(Destination.class);

  JmsForwardsTest() throws Exception {
    when(session.createBytesMessage()).thenReturn(forward);
  }

  private static InboundRequest inbound() {
    ScanRequest request =
        new ScanRequest(
            "ID:orig-1",
            "corr-1",
            "jms",
            null,
            null,
            null,
            Instant.EPOCH,
            false,
            ScanContent.of(new byte[0]));
    return new InboundRequest.Readable(request, null, 1);
  }

  private static ScanResult infected() {
    return new ScanResult(
        "ID:orig-1",
        "corr-1",
        Verdict.INFECTED,
        List.of("Eicar-Test-Signature"),
        null,
        null,
        "abc123",
        68,
        "ClamAV 1.4.6",
        "27451",
        false,
        Instant.parse("2026-01-02T03:04:05Z"),
        3,
        "gw");
  }

  @Test
  void forwardKeepsTheProducersPropertiesAndHeadersAndReplacesAForgedVerdict() throws Exception {
    when(original.getPropertyNames())
        .thenReturn(
            Collections.enumeration(
                List.of(
                    "tenant",
                    "avVerdict",
                    "avRequestId",
                    "JMSXDeliveryCount",
                    "destination-type")));
    when(original.getObjectProperty("tenant")).thenReturn("acme");
    when(original.getObjectProperty("avVerdict")).thenReturn("CLEAN");
    when(original.getObjectProperty("avRequestId")).thenReturn("forged");
    when(original.getObjectProperty("destination-type")).thenReturn("ANYCAST");
    when(original.getJMSCorrelationID()).thenReturn("corr-1");
    when(original.getJMSType()).thenReturn("upload");
    when(original.getJMSReplyTo()).thenReturn(replyTo);
    when(original.getStringProperty("JMSXGroupID")).thenReturn("group-7");
    when(original.propertyExists("JMSXGroupSeq")).thenReturn(true);
    when(original.getIntProperty("JMSXGroupSeq")).thenReturn(2);

    JmsForwards.forward(session, original, inbound(), infected());

    verify(forward).setObjectProperty("tenant", "acme");
    verify(forward, never()).setObjectProperty(eq("avVerdict"), any());
    verify(forward, never()).setObjectProperty(eq("avRequestId"), any());
    verify(forward, never()).setObjectProperty(eq("JMSXDeliveryCount"), any());
    verify(forward).setStringProperty("avVerdict", "INFECTED");
    verify(forward).setStringProperty("avSignature", "Eicar-Test-Signature");
    verify(forward).setStringProperty("avSha256", "abc123");
    verify(forward).setStringProperty("avEngine", "ClamAV 1.4.6/27451");
    verify(forward).setStringProperty("avScannedAt", "2026-01-02T03:04:05Z");
    verify(forward).setStringProperty("avRequestId", "ID:orig-1");
    verify(forward).setJMSCorrelationID("corr-1");
    verify(forward).setJMSType("upload");
    verify(forward).setJMSReplyTo(replyTo);
    verify(forward).setStringProperty("JMSXGroupID", "group-7");
    verify(forward).setIntProperty("JMSXGroupSeq", 2);
    ArgumentCaptor<String> carried = ArgumentCaptor.forClass(String.class);
    verify(forward).setStringProperty(eq("avOriginalHeaders"), carried.capture());
    Map<String, Object> headers = OriginalHeaders.decode(carried.getValue());
    assertThat(headers).containsEntry("destination-type", "ANYCAST").hasSize(1);
    // The body of a message not read (e.g. over the size limit) is streamed, not held.
    verify(forward).setObjectProperty(eq("JMS_AMQ_InputStream"), any());
    verify(forward, never()).setStringProperty(eq("avReason"), anyString());
  }

  @Test
  void timeToLiveKeepsTheProducersExpiration() throws Exception {
    when(original.getJMSExpiration()).thenReturn(0L);
    assertThat(JmsForwards.timeToLive(original, 1_000)).isZero();
    when(original.getJMSExpiration()).thenReturn(5_000L);
    assertThat(JmsForwards.timeToLive(original, 1_000)).isEqualTo(4_000);
    assertThat(JmsForwards.timeToLive(original, 9_000)).isEqualTo(1);
  }
}
