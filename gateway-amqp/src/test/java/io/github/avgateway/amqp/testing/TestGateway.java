package io.github.avgateway.amqp.testing;

import io.github.avgateway.core.testing.FakeScanner;
import io.github.avgateway.core.testing.InMemoryHistory;
import io.github.avgateway.core.testing.SwitchableGate;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The AMQP gateway application with test doubles for clamd, history and the intake gate, so that
 * its integration tests exercise the front-end against the real broker alone.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class TestGateway {

  @Bean
  FakeScanner fakeScanner() {
    return new FakeScanner();
  }

  @Bean
  InMemoryHistory inMemoryHistory() {
    return new InMemoryHistory();
  }

  @Bean
  SwitchableGate switchableGate() {
    return new SwitchableGate();
  }
}
