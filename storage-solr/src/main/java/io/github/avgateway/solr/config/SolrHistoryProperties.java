package io.github.avgateway.solr.config;

import io.github.avgateway.solr.TimeRouting;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code avgateway.solr.*}: where the scan history lives and how it is written and purged.
 *
 * @param mode {@code embedded} (default: in-process Solr under {@code embedded.home}), {@code http}
 *     (a standalone Solr at {@code http.base-url}) or {@code cloud} (SolrCloud via {@code
 *     cloud.zk-hosts} or {@code cloud.solr-urls})
 * @param collection the core (embedded, http) or collection (cloud) holding the history
 * @param username basic-auth user for http and cloud; empty for none
 * @param password basic-auth password; never printed
 * @param connectTimeout TCP connect timeout to Solr
 * @param requestTimeout longest one Solr request may take; also bounds how long a document waits in
 *     the recorder's queue before it is failed unsent
 * @param queryTimeout longest a history query (the history API and page) waits for Solr before it
 *     fails as "store unavailable"; shorter than {@code request-timeout}, which is sized for large
 *     batches, so that the page says the store is unreachable instead of hanging
 * @param commitWithin visibility delay asked for every write (a soft commit by Solr)
 */
@Validated
@ConfigurationProperties("avgateway.solr")
public record SolrHistoryProperties(
    @DefaultValue("embedded") @NotNull Mode mode,
    @DefaultValue("history") @NotBlank String collection,
    @DefaultValue("") String username,
    @DefaultValue("") String password,
    @DefaultValue("2s") @NotNull Duration connectTimeout,
    @DefaultValue("10s") @NotNull Duration requestTimeout,
    @DefaultValue("5s") @NotNull Duration queryTimeout,
    @DefaultValue("1s") @NotNull Duration commitWithin,
    @DefaultValue @Valid Embedded embedded,
    @DefaultValue @Valid Http http,
    @DefaultValue @Valid Cloud cloud,
    @DefaultValue @Valid Batch batch,
    @DefaultValue @Valid Retention retention,
    @DefaultValue @Valid Rollup rollup) {

  /** Where Solr runs. */
  public enum Mode {
    EMBEDDED,
    HTTP,
    CLOUD
  }

  public SolrHistoryProperties {
    if (mode == Mode.HTTP && http.baseUrl() == null) {
      throw new IllegalArgumentException("avgateway.solr.http.base-url is required in http mode");
    }
    if (mode != Mode.CLOUD && cloud.timeRouted().enabled()) {
      throw new IllegalArgumentException(
          "avgateway.solr.cloud.time-routed.enabled=true needs avgateway.solr.mode=cloud");
    }
    if (cloud.timeRouted().enabled()) {
      timeRouting(cloud.timeRouted(), retention); // fails on settings Solr cannot use
    }
    if (mode == Mode.CLOUD && cloud.zkHosts().isEmpty() && cloud.solrUrls().isEmpty()) {
      throw new IllegalArgumentException(
          "avgateway.solr.cloud.zk-hosts or avgateway.solr.cloud.solr-urls is required in cloud"
              + " mode");
    }
  }

  /**
   * The time-routed alias' layout, from {@code cloud.time-routed.*} and {@code retention.*}: the
   * collections are dropped once documents are {@code retention.max-age} old (never, with {@code
   * retention.enabled=false}).
   */
  public TimeRouting timeRouting() {
    return timeRouting(cloud.timeRouted(), retention);
  }

  private static TimeRouting timeRouting(TimeRouted timeRouted, Retention retention) {
    try {
      return new TimeRouting(
          timeRouted.interval(),
          timeRouted.maxFuture(),
          timeRouted.preemptiveCreateWindow(),
          retention.enabled() ? retention.maxAge() : Duration.ZERO);
    } catch (IllegalArgumentException e) {
      // the message is the whole story; the binder reports the root cause
      throw new IllegalArgumentException("avgateway.solr.cloud.time-routed: " + e.getMessage());
    }
  }

  /** Whether basic authentication is configured. */
  public boolean hasCredentials() {
    return username != null && !username.isBlank();
  }

  @Override
  public String toString() {
    return "SolrHistoryProperties[mode=%s, collection=%s, username=%s, password=%s, connectTimeout=%s, requestTimeout=%s, queryTimeout=%s, commitWithin=%s, embedded=%s, http=%s, cloud=%s, batch=%s, retention=%s, rollup=%s]"
        .formatted(
            mode,
            collection,
            username,
            password == null || password.isEmpty() ? "" : "******",
            connectTimeout,
            requestTimeout,
            queryTimeout,
            commitWithin,
            embedded,
            http,
            cloud,
            batch,
            retention,
            rollup);
  }

  /**
   * @param home the solr home: configset, core and index live below it
   */
  public record Embedded(@DefaultValue("./data/solr") @NotNull Path home) {}

  /**
   * @param baseUrl e.g. {@code http://127.0.0.1:8983/solr}; the core must exist
   */
  public record Http(URI baseUrl) {}

  /**
   * @param zkHosts ZooKeeper ensemble, {@code host:port} each; preferred over {@code solr-urls}
   * @param zkChroot ZooKeeper chroot, e.g. {@code /solr}; empty for none
   * @param solrUrls Solr node URLs, used when no ZooKeeper host is given
   * @param shards shards of the collection when it is created (of each collection, time-routed)
   * @param replicas replicas per shard when it is created
   * @param timeRouted history in a time-routed alias named {@code collection} instead of one
   *     collection
   */
  public record Cloud(
      @DefaultValue("") List<String> zkHosts,
      @DefaultValue("") String zkChroot,
      @DefaultValue("") List<String> solrUrls,
      @DefaultValue("1") @Min(1) int shards,
      @DefaultValue("1") @Min(1) int replicas,
      @DefaultValue @Valid TimeRouted timeRouted) {

    public Cloud {
      zkHosts = nonBlank(zkHosts);
      solrUrls = nonBlank(solrUrls);
    }

    private static List<String> nonBlank(List<String> values) {
      return values == null ? List.of() : values.stream().filter(v -> !v.isBlank()).toList();
    }
  }

  /**
   * A Solr time-routed alias on {@code receivedAt} (storage-solr/README.md, "Time-routed history"):
   * one collection per interval, created by Solr as documents of a new interval arrive; retention
   * drops whole collections (the alias' {@code router.autoDeleteAge}, from {@code
   * retention.max-age}) instead of deleting documents.
   *
   * @param enabled whether the history is a time-routed alias (cloud mode only); created, with its
   *     first collection, when missing
   * @param interval the receipt time one collection covers: whole minutes (e.g. {@code 1d}, {@code
   *     6h}); fixed once the alias exists
   * @param maxFuture how far ahead of Solr's clock a receipt time may be for Solr to route it;
   *     documents further ahead are stored in the newest collection. At least {@code 1m}
   * @param preemptiveCreateWindow how long before an interval starts its collection is created in
   *     the background, so that no write waits for it; {@code 0s} for none; shorter than {@code
   *     interval}
   */
  public record TimeRouted(
      @DefaultValue("false") boolean enabled,
      @DefaultValue("1d") @NotNull Duration interval,
      @DefaultValue("10m") @NotNull Duration maxFuture,
      @DefaultValue("1h") @NotNull Duration preemptiveCreateWindow) {}

  /**
   * @param size most documents per update request
   * @param maxDelay longest a batch waits to fill once it has a document
   * @param queueCapacity documents that may wait; recording blocks while the queue is full
   * @param concurrency update requests in flight at once
   * @param probeInterval while Solr refuses writes, how often an idle recorder checks it again
   */
  public record Batch(
      @DefaultValue("1000") @Min(1) int size,
      @DefaultValue("2ms") @NotNull Duration maxDelay,
      @DefaultValue("5000") @Min(1) int queueCapacity,
      @DefaultValue("4") @Min(1) int concurrency,
      @DefaultValue("1s") @NotNull Duration probeInterval) {}

  /**
   * The per-slot counts the history page's chart and top signatures read (storage-solr/README.md).
   *
   * @param enabled whether this process keeps the counts up to date (every process holding the
   *     store may; with none, the page counts every hour from the documents: correct, but slower as
   *     the history grows)
   * @param slot the stretch of receipt time one count covers; divides an hour. The hours of the
   *     last slot or two are counted from their documents at each query.
   * @param interval time between two runs that count the slots written since
   */
  public record Rollup(
      @DefaultValue("true") boolean enabled,
      @DefaultValue("10m") @NotNull Duration slot,
      @DefaultValue("30s") @NotNull Duration interval) {}

  /**
   * Retention. In a time-routed alias ({@code cloud.time-routed.enabled}) Solr drops whole
   * collections instead, and only {@code enabled} and {@code max-age} apply.
   *
   * @param enabled whether documents are purged at all
   * @param maxAge documents received longer ago are deleted; time-routed: a document is kept at
   *     least this long and dropped with its collection, at most about two intervals later
   * @param interval time between purges
   * @param budget longest one purge may run before retention counts as behind (the indexer holds)
   * @param slice time span per delete-by-query request
   */
  public record Retention(
      @DefaultValue("true") boolean enabled,
      @DefaultValue("30d") @NotNull Duration maxAge,
      @DefaultValue("1h") @NotNull Duration interval,
      @DefaultValue("1m") @NotNull Duration budget,
      @DefaultValue("1h") @NotNull Duration slice) {}
}
