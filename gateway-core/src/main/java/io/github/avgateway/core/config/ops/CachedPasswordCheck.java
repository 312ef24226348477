package io.github.avgateway.core.config.ops;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;

/**
 * HTTP basic authentication that checks a password hash (BCrypt: about 60 ms of CPU here) once per
 * credentials, not once per request, and never on more than one thread at a time.
 *
 * <ul>
 *   <li>The outcome of a check, right or wrong, is remembered for {@code ttl} under an HMAC of user
 *       and password with a key made at start and never kept elsewhere: a scripted caller, the
 *       history page and a Prometheus scrape pay one check per {@code ttl}, the same wrong password
 *       tried again costs nothing.
 *   <li>Checks not answered from memory run one at a time, each waiting at most {@code wait} for
 *       its turn; the ones that find no turn fail at once ({@link LoginThrottledException},
 *       answered 429). So failed logins with ever new passwords take at most one core, and callers
 *       whose credentials are remembered are answered all the while.
 * </ul>
 */
final class CachedPasswordCheck implements AuthenticationProvider {

  private final AuthenticationProvider delegate;
  private final Cache<ByteBuffer, Outcome> outcomes;
  private final Semaphore checking = new Semaphore(1);
  private final Duration wait;
  private final SecretKeySpec key;

  /**
   * @param delegate checks a password against its hash (Spring's DaoAuthenticationProvider)
   * @param ttl how long an outcome is remembered
   * @param wait longest a request waits for its turn to be checked
   */
  CachedPasswordCheck(AuthenticationProvider delegate, Duration ttl, Duration wait) {
    this.delegate = delegate;
    this.wait = wait;
    this.outcomes = Caffeine.newBuilder().expireAfterWrite(ttl).maximumSize(10_000).build();
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    this.key = new SecretKeySpec(secret, "HmacSHA256");
  }

  /** A remembered check: the authenticated result, or the failure to throw again. */
  private record Outcome(Authentication success, AuthenticationException failure) {}

  @Override
  public Authentication authenticate(Authentication authentication) {
    ByteBuffer id = fingerprint(authentication);
    Outcome known = outcomes.getIfPresent(id);
    if (known == null) {
      known = check(authentication, id);
    }
    if (known.failure() != null) {
      throw known.failure();
    }
    return known.success();
  }

  private Outcome check(Authentication authentication, ByteBuffer id) {
    boolean turn;
    try {
      turn = checking.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      turn = false;
    }
    if (!turn) {
      throw new LoginThrottledException("too many password checks at once; try again shortly");
    }
    try {
      Outcome known = outcomes.getIfPresent(id); // checked meanwhile by another request
      if (known != null) {
        return known;
      }
      Outcome outcome;
      try {
        outcome = new Outcome(delegate.authenticate(authentication), null);
      } catch (BadCredentialsException e) {
        outcome = new Outcome(null, new BadCredentialsException("Bad credentials"));
      }
      outcomes.put(id, outcome);
      return outcome;
    } finally {
      checking.release();
    }
  }

  private ByteBuffer fingerprint(Authentication authentication) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      mac.update(authentication.getName().getBytes(StandardCharsets.UTF_8));
      mac.update((byte) 0);
      Object credentials = authentication.getCredentials();
      mac.update(String.valueOf(credentials).getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.wrap(mac.doFinal());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  @Override
  public boolean supports(Class<?> authentication) {
    return UsernamePasswordAuthenticationToken.class.isAssignableFrom(authentication);
  }

  /** A password check refused because others are being checked: answered 429, not 401. */
  static final class LoginThrottledException extends AuthenticationException {
    LoginThrottledException(String message) {
      super(message);
    }
  }
}
