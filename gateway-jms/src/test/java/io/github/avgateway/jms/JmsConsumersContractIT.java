package io.github.avgateway.jms;

import io.github.avgateway.jms.config.JmsProperties;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The transport contract of {@link JmsTransportContractIT}, on the gateway's own consumers ({@code
 * avgateway.jms.intake=consumers}) instead of the default listener containers.
 */
class JmsConsumersContractIT extends JmsTransportContractIT {

  @DynamicPropertySource
  static void ownConsumers(DynamicPropertyRegistry registry) {
    registry.add("avgateway.jms.intake", () -> "consumers");
  }

  @Override
  JmsProperties.Intake expectedIntake() {
    return JmsProperties.Intake.CONSUMERS;
  }
}
