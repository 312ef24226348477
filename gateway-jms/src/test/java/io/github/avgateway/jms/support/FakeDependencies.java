package io.github.avgateway.jms.support;

import io.github.avgateway.core.testing.FakeScanner;
import io.github.avgateway.core.testing.InMemoryHistory;
import io.github.avgateway.core.testing.SwitchableGate;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/** The gateway's dependencies as fakes a test controls. */
@TestConfiguration(proxyBeanMethods = false)
public class FakeDependencies {

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
