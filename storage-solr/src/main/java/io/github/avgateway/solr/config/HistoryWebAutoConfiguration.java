package io.github.avgateway.solr.config;

import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.solr.web.HistoryApiController;
import io.github.avgateway.solr.web.HistoryApiErrors;
import io.github.avgateway.solr.web.HistoryPageResources;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import java.time.Clock;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * The history API ({@code /api/history/...}) and page ({@code /history/}, {@code /} redirects to
 * it) in a servlet web application that has a {@link HistoryQueries} bean (the Solr store's, or any
 * other), unless {@code avgateway.history.web.enabled=false}. With springdoc on the class path the
 * API is described at {@code /v3/api-docs}.
 */
@AutoConfiguration(after = SolrHistoryAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBooleanProperty(name = "avgateway.history.web.enabled", matchIfMissing = true)
@ConditionalOnBean(HistoryQueries.class)
@EnableConfigurationProperties(HistoryWebProperties.class)
public class HistoryWebAutoConfiguration {

  @Bean
  HistoryApiController historyApiController(
      HistoryQueries queries, HistoryWebProperties properties) {
    return new HistoryApiController(queries, properties.transports(), Clock.systemUTC());
  }

  @Bean
  HistoryApiErrors historyApiErrors() {
    return new HistoryApiErrors();
  }

  @Bean
  HistoryPageResources historyPageResources() {
    return new HistoryPageResources();
  }

  /** Title and conventions of the API in its OpenAPI description, when springdoc is present. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "io.swagger.v3.oas.models.OpenAPI")
  static class ApiDocs {

    @Bean
    @ConditionalOnMissingBean
    OpenAPI historyOpenApi() {
      return new OpenAPI()
          .info(
              new Info()
                  .title("av-gateway history API")
                  .version("1")
                  .description(
                      "One document per scanned request. Times are ISO-8601 instants of a"
                          + " request's receipt (e.g. 2026-01-31T12:00:00Z); a range is [from,"
                          + " to), by default the last 24 hours. Errors are RFC 9457 problem"
                          + " documents whose error member is BAD_PARAMETER (with parameter),"
                          + " NOT_FOUND or STORE_UNAVAILABLE."));
    }
  }
}
