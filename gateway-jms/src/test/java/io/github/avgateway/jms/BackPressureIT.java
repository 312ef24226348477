package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.contract.ContractRequest;
import io.github.avgateway.jms.support.Inbox;
import io.github.avgateway.jms.support.JmsContractDriver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * While the intake gate is down nothing is consumed; once it is up again everything is answered.
 */
class BackPressureIT extends AbstractFakeGatewayIT {

  private static final int REQUESTS = 20;

  @Test
  void consumersStopWhileTheGateIsDownAndResumeByThemselves() throws Exception {
    Inbox inbox = new Inbox();
    try (JmsContractDriver driver = driver(inbox)) {
      gate.down("clamd unreachable (test)");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> broker.consumerCount(properties.requestQueue()) == 0);
      int scansBefore = scanner.scans();

      List<String> correlationIds = new ArrayList<>();
      for (int i = 0; i < REQUESTS; i++) {
        String correlationId = "paused-" + UUID.randomUUID();
        correlationIds.add(correlationId);
        driver.send(ContractRequest.of(fresh(), null, correlationId));
      }
      await()
          .during(Duration.ofSeconds(1))
          .atMost(Duration.ofSeconds(5))
          .until(() ->
              broker.messageCount(properties.requestQueue()) == REQUESTS
                  && inbox.replyCount() == 0
                  && scanner.scans() == scansBefore);

      gate.up();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> correlationIds.stream().allMatch(id -> !inbox.replies(id).isEmpty()));
      for (String correlationId : correlationIds) {
        assertThat(inbox.replies(correlationId)).hasSize(1);
      }
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> broker.messageCount(properties.requestQueue()) == 0);
    }
  }
}
