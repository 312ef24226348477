package io.github.avgateway.jms.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.config.ops.HttpProperties;
import io.github.avgateway.solr.config.SolrHistoryProperties;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** No properties record prints a secret in its {@code toString}. */
class SecretsTest {

  private static final String SECRET = "s3cret-value";

  private static Binder binder(Map<String, String> values) {
    return new Binder(new MapConfigurationPropertySource(values));
  }

  @Test
  void jmsPasswordsAreMasked() {
    JmsProperties jms =
        binder(
                Map.of(
                    "avgateway.jms.user",
                    "gateway",
                    "avgateway.jms.password",
                    SECRET,
                    "avgateway.jms.tls.enabled",
                    "true",
                    "avgateway.jms.tls.key-store-password",
                    SECRET + "1",
                    "avgateway.jms.tls.trust-store-password",
                    SECRET + "2"))
            .bindOrCreate("avgateway.jms", JmsProperties.class);
    assertThat(jms.password()).isEqualTo(SECRET);
    assertThat(jms.toString()).contains("user=gateway", "******").doesNotContain(SECRET);
  }

  @Test
  void solrPasswordIsMasked() {
    SolrHistoryProperties solr =
        binder(Map.of("avgateway.solr.username", "history", "avgateway.solr.password", SECRET))
            .bindOrCreate("avgateway.solr", SolrHistoryProperties.class);
    assertThat(solr.password()).isEqualTo(SECRET);
    assertThat(solr.toString()).contains("username=history").doesNotContain(SECRET);
  }

  @Test
  void httpPasswordIsMasked() {
    HttpProperties http =
        binder(Map.of("avgateway.http.password", SECRET))
            .bindOrCreate("avgateway.http", HttpProperties.class);
    assertThat(http.hasPassword()).isTrue();
    assertThat(http.toString()).contains("username=avgateway").doesNotContain(SECRET);
  }
}
