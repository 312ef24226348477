package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.jms.config.JmsProperties;
import org.junit.jupiter.api.Test;

/** The holds of {@link AbstractIntakeHoldIT} on the default intake, the gateway's own consumers. */
class JmsConsumersHoldIT extends AbstractIntakeHoldIT {

  @Test
  void theConsumersIntakeIsOn() {
    assertThat(properties.intake()).isEqualTo(JmsProperties.Intake.CONSUMERS);
  }
}
