package io.github.avgateway.core.config.ops;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The gateway's HTTP endpoints ({@code avgateway.http.*}): everything but {@code /actuator/health}
 * requires HTTP basic authentication as this one user. The address and port are Spring Boot's
 * {@code server.address} and {@code server.port}. The password never appears in {@link #toString()}
 * nor in any log.
 *
 * @param username the user name for basic authentication
 * @param password the password, in plain text or encoded with its id prefix (e.g. {@code
 *     {bcrypt}$2a$10$...}); empty (the default) generates a random one that is never shown, so that
 *     only health is reachable until an operator sets one
 * @param authCacheTtl how long the outcome of a password check is remembered (under an HMAC of user
 *     and password, never the password): within it, the same credentials are not hashed again
 */
@Validated
@ConfigurationProperties("avgateway.http")
public record HttpProperties(
    @DefaultValue("avgateway") @NotBlank String username,
    @DefaultValue("") @NotNull String password,
    @DefaultValue("5m") @NotNull Duration authCacheTtl) {

  /** Whether an operator set a password. */
  public boolean hasPassword() {
    return password != null && !password.isBlank();
  }

  @Override
  public String toString() {
    return "HttpProperties[username="
        + username
        + ", password="
        + (hasPassword() ? "******" : "")
        + ", authCacheTtl="
        + authCacheTtl
        + "]";
  }
}
