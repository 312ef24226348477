package io.github.avgateway.core.config;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What this gateway process does ({@code avgateway.mode}), the same on both front-ends. {@link
 * IndexerModeEnvironment} defaults what an indexer-only process does not need.
 *
 * @param mode {@code GATEWAY} (scans requests and, unless {@code avgateway.history.indexer.enabled}
 *     is false, indexes history) or {@code INDEXER} (indexes history and nothing else: no request
 *     consumer, no clamd)
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
