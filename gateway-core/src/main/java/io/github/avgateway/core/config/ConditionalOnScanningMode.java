package io.github.avgateway.core.config;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;

/**
 * Matches a process that scans requests: {@code avgateway.mode} is {@code GATEWAY} (the default),
 * not {@code INDEXER} ({@link GatewayModeProperties}). The front-ends put their request consumers
 * and what only those use behind it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Documented
@ConditionalOnProperty(
    prefix = "avgateway",
    name = "mode",
    havingValue = "gateway",
    matchIfMissing = true)
public @interface ConditionalOnScanningMode {}
