package io.github.avgateway.solr.web;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * An application with every auto-configuration on the test class path and a list-backed {@link
 * ListHistoryQueries} (run it with {@code avgateway.solr.enabled=false}).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class WebTestApp {

  @Bean
  ListHistoryQueries listHistoryQueries() {
    return new ListHistoryQueries();
  }
}
