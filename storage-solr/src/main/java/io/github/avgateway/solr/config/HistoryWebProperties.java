package io.github.avgateway.solr.config;

import jakarta.validation.constraints.NotEmpty;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code avgateway.history.web.*}: the history API and page a servlet web application serves.
 *
 * @param enabled {@code false}: neither API nor page
 * @param transports transports a lookup by request id searches, in order, when it names none
 */
@Validated
@ConfigurationProperties("avgateway.history.web")
public record HistoryWebProperties(
    @DefaultValue("true") boolean enabled,
    @DefaultValue({"jms", "amqp"}) @NotEmpty List<String> transports) {}
