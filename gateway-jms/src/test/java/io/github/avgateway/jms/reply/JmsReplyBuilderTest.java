package io.github.avgateway.jms.reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.ScanResultJson;
import jakarta.jms.BytesMessage;
import jakarta.jms.Session;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class JmsReplyBuilderTest {

  private static ScanResult result(Verdict verdict, List<String> signatures, Reason reason) {
    return new ScanResult(
        "ID:1",
        "corr-1",
        verdict,
        signatures,
        reason,
        null,
        "ab",
        68,
        "ClamAV 1.4.6",
        "",
        false,
        Instant.parse("2026-11-22T10:00:00Z"),
        3,
        "gw");
  }

  private final Session session = mock(Session.class);
  private final BytesMessage reply = mock(BytesMessage.class);
  private final AtomicReference<byte[]> body = new AtomicReference<>();

  JmsReplyBuilderTest() throws Exception {
    when(session.createBytesMessage()).thenReturn(reply);
    doAnswer(
            call -> {
              body.set(call.getArgument(0));
              return null;
            })
        .when(reply)
        .writeBytes(any(byte[].class));
  }

  @Test
  void infectedReplyCarriesCorrelationVerdictSignatureAndJsonBody() throws Exception {
    ScanResult infected = result(Verdict.INFECTED, List.of("Eicar", "Other"), null);

    JmsReplyBuilder.reply(session, infected);

    verify(reply).setJMSCorrelationID("corr-1");
    verify(reply).setStringProperty("avVerdict", "INFECTED");
    verify(reply).setStringProperty("avSignature", "Eicar");
    verify(reply, never())
        .setStringProperty(org.mockito.ArgumentMatchers.eq("avReason"), anyString());
    verify(reply).setStringProperty("contentType", "application/json");
    assertThat(ScanResultJson.decode(body.get())).isEqualTo(infected);
  }

  @Test
  void unscannableReplyCarriesItsReasonAndNoSignature() throws Exception {
    JmsReplyBuilder.reply(session, result(Verdict.UNSCANNABLE, List.of(), Reason.ENCRYPTED));

    verify(reply).setStringProperty("avVerdict", "UNSCANNABLE");
    verify(reply).setStringProperty("avReason", "ENCRYPTED");
    verify(reply, never())
        .setStringProperty(org.mockito.ArgumentMatchers.eq("avSignature"), anyString());
  }
}
