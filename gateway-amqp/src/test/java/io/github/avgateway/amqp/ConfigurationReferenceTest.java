package io.github.avgateway.amqp;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.testing.ConfigurationReference;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md lists every key of the core, the history store and this front-end, with the
 * defaults of the properties records, and no key that no longer exists.
 */
class ConfigurationReferenceTest {

  @Test
  void documentMatchesThePropertiesRecords() throws Exception {
    Map<String, String> metadata = ConfigurationReference.fromMetadata();
    assertThat(metadata).containsKeys("avgateway.clamd.endpoints", "avgateway.solr.mode");
    assertThat(metadata.keySet()).anyMatch(key -> key.startsWith("avgateway.amqp."));
    Map<String, String> document =
        ConfigurationReference.fromDocument(ConfigurationReference.document());
    assertThat(ConfigurationReference.differences(metadata, document)).isEmpty();
  }
}
