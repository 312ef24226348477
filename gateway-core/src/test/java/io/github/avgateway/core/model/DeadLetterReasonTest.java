package io.github.avgateway.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class DeadLetterReasonTest {

  @Test
  void onlyARequestOverTheDeliveryLimitIsRecordedAsAFailedScan() {
    assertThat(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED.unscannedReason())
        .isEqualTo(Reason.SCAN_FAILED);
    for (DeadLetterReason reason :
        EnumSet.complementOf(EnumSet.of(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED))) {
      assertThat(reason.unscannedReason()).as(reason.name()).isEqualTo(Reason.MALFORMED_REQUEST);
    }
  }
}
