package io.github.avgateway.amqp.config;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What this AMQP gateway process does ({@code avgateway.mode}). The JMS gateway has no indexer-only
 * mode yet: there, switch the indexer off per gateway with {@code
 * avgateway.history.indexer.enabled=false}.
 *
 * @param mode {@code GATEWAY} (scans requests and, unless {@code avgateway.history.indexer.enabled}
 *     is false, indexes history) or {@code INDEXER} (AMQP gateway only: indexes history and nothing
 *     else, no request consumer, no clamd)
 */
@Validated
@ConfigurationProperties("avgateway")
public record GatewayModeProperties(@DefaultValue("GATEWAY") @NotNull Mode mode) {

  /** What a process does. */
  public enum Mode {
    /** Scans requests; indexes history too unless switched off. */
    GATEWAY,
    /** Only drains the history stream into the store. */
    INDEXER
  }
}
