package io.github.avgateway.jms.support;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/** The gateway's dependencies as fakes a test controls. */
@TestConfiguration(proxyBeanMethods = false)
public class FakeDependencies {

  @Bean
  EicarOnlyScanner eicarOnlyScanner() {
    return new EicarOnlyScanner();
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
