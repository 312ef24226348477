package io.github.avgateway.solr;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.CollectionAdminRequest.CreateTimeRoutedAlias;
import org.apache.solr.client.solrj.response.CollectionAdminResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the history's time-routed alias in SolrCloud when it is absent: Solr's own {@code
 * CREATEALIAS} with a time router on {@code receivedAt}, which creates the first collection from
 * the history configset (uploaded first if the cluster lacks it). An existing alias is used with
 * its interval; its retention, max-future and preemptive window are set to the configured ones when
 * they differ (Solr reads them at every write). A plain collection or plain alias of that name is
 * an error that says what to change.
 */
final class TimeRoutedAliases {

  static final String ROUTER_NAME = "router.name";
  static final String ROUTER_FIELD = "router.field";

  private static final Logger log = LoggerFactory.getLogger(TimeRoutedAliases.class);

  private TimeRoutedAliases() {}

  /**
   * Makes sure that the alias {@code alias} exists as configured.
   *
   * @param firstStart the receipt time the first collection starts at, when the alias is created: a
   *     whole number of seconds
   */
  static void ensure(
      SolrClient client,
      String alias,
      int shards,
      int replicas,
      TimeRouting routing,
      Instant firstStart) {
    SolrHistoryQueries.call(() -> {
      CollectionAdminResponse aliases = new CollectionAdminRequest.ListAliases().process(client);
      if (aliases.getAliases().containsKey(alias)) {
        Map<String, String> properties = aliases.getAliasProperties().getOrDefault(alias, Map.of());
        checkTimeRouted(alias, properties);
        update(client, alias, properties, routing);
      } else if (CollectionAdminRequest.listCollections(client).contains(alias)) {
        throw new SolrHistoryException(
            "avgateway.solr.collection="
                + alias
                + " names a plain collection, and time-routed history needs an alias of that name:"
                + " set another avgateway.solr.collection (the plain collection stays as it is)");
      } else {
        CloudCollections.ensureConfigset(client);
        create(client, alias, shards, replicas, routing, firstStart);
      }
      return null;
    });
  }

  private static void checkTimeRouted(String alias, Map<String, String> properties) {
    if (!"time".equals(properties.get(ROUTER_NAME))
        || !HistoryFields.RECEIVED_AT.equals(properties.get(ROUTER_FIELD))) {
      throw new SolrHistoryException(
          "the alias "
              + alias
              + " is not routed by time on "
              + HistoryFields.RECEIVED_AT
              + " (its properties: "
              + properties
              + "): set another avgateway.solr.collection");
    }
  }

  private static void create(
      SolrClient client,
      String alias,
      int shards,
      int replicas,
      TimeRouting routing,
      Instant firstStart)
      throws Exception {
    CollectionAdminResponse response =
        request(alias, shards, replicas, routing, firstStart).process(client);
    if (response.getStatus() != 0) { // CREATEALIAS answers a status, no "success" entry
      throw new SolrHistoryException(
          "creating the time-routed alias " + alias + " failed: " + response.getResponse());
    }
    log.info(
        "created the time-routed history alias {} ({} from {}, {} shards x {} replicas)",
        alias,
        routing.intervalMath(),
        firstStart,
        shards,
        replicas);
  }

  private static CreateTimeRoutedAlias request(
      String alias, int shards, int replicas, TimeRouting routing, Instant firstStart) {
    // the template's name is not sent: Solr names every collection of the alias itself
    CollectionAdminRequest.Create template =
        CollectionAdminRequest.createCollection(
            "template", HistoryConfigset.NAME, shards, replicas);
    CreateTimeRoutedAlias create =
        CollectionAdminRequest.createTimeRoutedAlias(
            alias,
            firstStart.toString(),
            routing.intervalMath(),
            HistoryFields.RECEIVED_AT,
            template);
    create.setMaxFutureMs(routing.maxFuture().toMillis());
    if (routing.preemptiveCreateMath() != null) {
      create.setPreemptiveCreateWindow(routing.preemptiveCreateMath());
    }
    if (routing.autoDeleteAge() != null) {
      create.setAutoDeleteAge(routing.autoDeleteAge());
    }
    return create;
  }

  /** Sets the alias' retention, max-future and window to the configured ones where they differ. */
  private static void update(
      SolrClient client, String alias, Map<String, String> properties, TimeRouting routing)
      throws Exception {
    Map<String, String> changed = new LinkedHashMap<>();
    wanted(routing)
        .forEach((key, value) -> {
          if (!Objects.equals(properties.get(key), value)) {
            changed.put(key, Objects.requireNonNullElse(value, "")); // empty removes it
          }
        });
    String interval = properties.get(CreateTimeRoutedAlias.ROUTER_INTERVAL);
    if (!routing.intervalMath().equals(interval)) {
      log.warn(
          "the history alias {} keeps its interval {} (configured: {}; an alias' interval cannot"
              + " change)",
          alias,
          interval,
          routing.intervalMath());
    }
    if (!changed.isEmpty()) {
      CollectionAdminRequest.SetAliasProperty set = CollectionAdminRequest.setAliasProperty(alias);
      changed.forEach(set::addProperty);
      set.process(client);
      log.info("history alias {}: set {}", alias, changed);
    }
  }

  /** The alias properties the configuration decides (null: absent). */
  private static Map<String, String> wanted(TimeRouting routing) {
    Map<String, String> wanted = new LinkedHashMap<>();
    wanted.put(CreateTimeRoutedAlias.ROUTER_AUTO_DELETE_AGE, routing.autoDeleteAge());
    wanted.put(
        CreateTimeRoutedAlias.ROUTER_MAX_FUTURE, Long.toString(routing.maxFuture().toMillis()));
    wanted.put(
        CreateTimeRoutedAlias.ROUTER_PREEMPTIVE_CREATE_WINDOW, routing.preemptiveCreateMath());
    return wanted;
  }
}
