package io.github.avgateway.core.config.ops;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.authentication.dao.DaoAuthenticationProvider;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.www.BasicAuthenticationEntryPoint;

/**
 * HTTP security of both gateways: {@code /actuator/health} and its groups (liveness, readiness) are
 * open; every other path (actuator, Prometheus, the history API and page, API docs) requires HTTP
 * basic authentication as the user of {@link HttpProperties}. Stateless: no session, no cookie; a
 * password is checked against its hash once per {@link HttpProperties#authCacheTtl()} and one at a
 * time ({@link CachedPasswordCheck}), so that neither callers nor failed logins spend a core on
 * hashing. Replaces Spring Boot's default user, whose generated password Boot would log.
 */
@AutoConfiguration(
    before = {
      SecurityAutoConfiguration.class,
      UserDetailsServiceAutoConfiguration.class,
      ManagementWebSecurityAutoConfiguration.class
    })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(SecurityFilterChain.class)
@EnableConfigurationProperties(HttpProperties.class)
public class GatewaySecurityAutoConfiguration {

  private static final Logger log = LoggerFactory.getLogger(GatewaySecurityAutoConfiguration.class);
  private static final Pattern ENCODED = Pattern.compile("\\{[A-Za-z0-9_-]+}.+");

  @Bean
  SecurityFilterChain avgatewaySecurityFilterChain(
      HttpSecurity http,
      UserDetailsService users,
      PasswordEncoder encoder,
      HttpProperties properties)
      throws Exception {
    DaoAuthenticationProvider hashed = new DaoAuthenticationProvider(users);
    hashed.setPasswordEncoder(encoder);
    CachedPasswordCheck cached =
        new CachedPasswordCheck(hashed, properties.authCacheTtl(), Duration.ofMillis(500));
    BasicAuthenticationEntryPoint basic = new BasicAuthenticationEntryPoint();
    basic.setRealmName("av-gateway");
    http.authenticationManager(new ProviderManager(cached))
        .authorizeHttpRequests(requests ->
            requests
                .requestMatchers(EndpointRequest.to("health"))
                .permitAll()
                .anyRequest()
                .authenticated())
        .httpBasic(b -> b.authenticationEntryPoint(throttledOr(basic)))
        .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
    return http.build();
  }

  /** 429 with Retry-After for a password check refused for load, else {@code basic}'s 401. */
  private static AuthenticationEntryPoint throttledOr(AuthenticationEntryPoint basic) {
    return (request, response, e) -> {
      if (e instanceof CachedPasswordCheck.LoginThrottledException) {
        response.setHeader("Retry-After", "1");
        response.sendError(429, e.getMessage());
      } else {
        basic.commence(request, response, e);
      }
    };
  }

  @Bean
  PasswordEncoder avgatewayPasswordEncoder() {
    return PasswordEncoderFactories.createDelegatingPasswordEncoder();
  }

  /** The one user; a password that is not set is random and never shown. */
  @Bean
  UserDetailsService avgatewayHttpUsers(HttpProperties properties, PasswordEncoder encoder) {
    String password;
    if (properties.hasPassword()) {
      String configured = properties.password();
      password = ENCODED.matcher(configured).matches() ? configured : encoder.encode(configured);
    } else {
      log.info(
          "No avgateway.http.password set: only /actuator/health is reachable over HTTP until one"
              + " is configured");
      password = encoder.encode(randomSecret());
    }
    return new InMemoryUserDetailsManager(
        User.withUsername(properties.username()).password(password).roles("OPERATOR").build());
  }

  private static String randomSecret() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return Base64.getEncoder().encodeToString(bytes);
  }
}
