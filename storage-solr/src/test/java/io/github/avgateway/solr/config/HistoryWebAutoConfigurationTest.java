package io.github.avgateway.solr.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.solr.web.HistoryApiController;
import io.github.avgateway.solr.web.HistoryPageResources;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

/** When the history API and page are there: a servlet web application with history queries. */
class HistoryWebAutoConfigurationTest {

  private static final AutoConfigurations WEB =
      AutoConfigurations.of(HistoryWebAutoConfiguration.class);

  /** A query port no test calls: only its presence matters here. */
  private static HistoryQueries queries() {
    return (HistoryQueries)
        Proxy.newProxyInstance(
            HistoryQueries.class.getClassLoader(),
            new Class<?>[] {HistoryQueries.class},
            (proxy, method, args) -> {
              throw new UnsupportedOperationException(method.getName());
            });
  }

  @Test
  void aWebApplicationWithHistoryQueriesServesApiAndPage() {
    new WebApplicationContextRunner()
        .withConfiguration(WEB)
        .withBean(HistoryQueries.class, HistoryWebAutoConfigurationTest::queries)
        .run(context -> {
          assertThat(context).hasSingleBean(HistoryApiController.class);
          assertThat(context).hasSingleBean(HistoryPageResources.class);
          assertThat(context.getBean(HistoryWebProperties.class).transports())
              .containsExactly("jms", "amqp");
        });
  }

  @Test
  void nothingWithoutQueriesWhenDisabledOrOutsideAWebApplication() {
    new WebApplicationContextRunner()
        .withConfiguration(WEB)
        .run(context -> assertThat(context).doesNotHaveBean(HistoryApiController.class));
    new WebApplicationContextRunner()
        .withConfiguration(WEB)
        .withBean(HistoryQueries.class, HistoryWebAutoConfigurationTest::queries)
        .withPropertyValues("avgateway.history.web.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(HistoryApiController.class));
    new ApplicationContextRunner()
        .withConfiguration(WEB)
        .withBean(HistoryQueries.class, HistoryWebAutoConfigurationTest::queries)
        .run(context -> assertThat(context).doesNotHaveBean(HistoryApiController.class));
  }
}
