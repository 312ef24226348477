package io.github.avgateway.solr.config;

import io.github.avgateway.solr.SolrHistoryGate;
import io.github.avgateway.solr.SolrHistoryStore;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;

/** Opens the history store for the configured mode. */
final class SolrStoreFactory {

  private SolrStoreFactory() {}

  /**
   * Opens the store; an embedded one opens in the background (about 3–5 s of start-up that would
   * otherwise hold up the rest of the application), with {@code gate} down until it is open.
   */
  static SolrHistoryStore open(SolrHistoryProperties properties, SolrHistoryGate gate) {
    return switch (properties.mode()) {
      case EMBEDDED ->
          SolrHistoryStore.embeddedInBackground(
              properties.embedded().home(), properties.collection(), gate);
      case HTTP -> http(properties);
      case CLOUD -> cloud(properties);
    };
  }

  private static SolrHistoryStore http(SolrHistoryProperties properties) {
    Http2SolrClient client =
        clientBuilder(properties, properties.http().baseUrl().toString())
            .withDefaultCollection(properties.collection())
            .build();
    return SolrHistoryStore.of(client, properties.collection());
  }

  private static SolrHistoryStore cloud(SolrHistoryProperties properties) {
    SolrHistoryProperties.Cloud cloud = properties.cloud();
    List<String> zkHosts = cloud.zkHosts();
    CloudHttp2SolrClient.Builder builder =
        zkHosts.isEmpty()
            ? new CloudHttp2SolrClient.Builder(cloud.solrUrls())
            : new CloudHttp2SolrClient.Builder(
                zkHosts, Optional.of(cloud.zkChroot()).filter(c -> !c.isBlank()));
    CloudHttp2SolrClient client =
        builder
            .withInternalClientBuilder(clientBuilder(properties, null))
            .withDefaultCollection(properties.collection())
            .build();
    if (cloud.timeRouted().enabled()) {
      return SolrHistoryStore.timeRouted(
          client,
          properties.collection(),
          cloud.shards(),
          cloud.replicas(),
          properties.timeRouting());
    }
    return SolrHistoryStore.cloud(
        client, properties.collection(), cloud.shards(), cloud.replicas());
  }

  private static Http2SolrClient.Builder clientBuilder(
      SolrHistoryProperties properties, String baseUrl) {
    Http2SolrClient.Builder builder =
        baseUrl == null ? new Http2SolrClient.Builder() : new Http2SolrClient.Builder(baseUrl);
    builder
        .withConnectionTimeout(properties.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
        .withRequestTimeout(properties.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
    if (properties.hasCredentials()) {
      builder.withBasicAuthCredentials(properties.username(), properties.password());
    }
    return builder;
  }
}
