package io.github.avgateway.core.config.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.AuthorityUtils;

class CachedPasswordCheckTest {

  /** A hash check that counts its calls and can be held, standing in for BCrypt. */
  private static final class CountingCheck implements AuthenticationProvider {
    final AtomicInteger calls = new AtomicInteger();
    volatile CountDownLatch hold = new CountDownLatch(0);
    volatile CountDownLatch entered = new CountDownLatch(1);

    @Override
    public Authentication authenticate(Authentication a) {
      calls.incrementAndGet();
      entered.countDown();
      try {
        hold.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (!"right".equals(a.getCredentials())) {
        throw new BadCredentialsException("wrong password");
      }
      return UsernamePasswordAuthenticationToken.authenticated(
          a.getName(), null, AuthorityUtils.createAuthorityList("ROLE_OPERATOR"));
    }

    @Override
    public boolean supports(Class<?> authentication) {
      return true;
    }
  }

  private static Authentication login(String password) {
    return UsernamePasswordAuthenticationToken.unauthenticated("avgateway", password);
  }

  @Test
  void theSameCredentialsAreHashedOnceWithinTheTtl() {
    CountingCheck hash = new CountingCheck();
    CachedPasswordCheck check =
        new CachedPasswordCheck(hash, Duration.ofMinutes(5), Duration.ofMillis(500));

    for (int i = 0; i < 100; i++) {
      assertThat(check.authenticate(login("right")).isAuthenticated()).isTrue();
    }
    assertThat(hash.calls).hasValue(1);
  }

  @Test
  void aWrongPasswordIsRefusedEveryTimeButHashedOnce() {
    CountingCheck hash = new CountingCheck();
    CachedPasswordCheck check =
        new CachedPasswordCheck(hash, Duration.ofMinutes(5), Duration.ofMillis(500));

    for (int i = 0; i < 20; i++) {
      assertThatThrownBy(() -> check.authenticate(login("wrong")))
          .isInstanceOf(BadCredentialsException.class);
    }
    assertThat(hash.calls).hasValue(1);
    assertThat(check.authenticate(login("right")).isAuthenticated()).isTrue();
    assertThat(hash.calls).hasValue(2);
  }

  @Test
  void anOutcomeIsForgottenAfterTheTtl() {
    CountingCheck hash = new CountingCheck();
    CachedPasswordCheck check =
        new CachedPasswordCheck(hash, Duration.ofMillis(50), Duration.ofMillis(500));
    check.authenticate(login("right"));
    await()
        .atMost(Duration.ofSeconds(5))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> check.authenticate(login("right")) != null && hash.calls.get() == 2);
    check.authenticate(login("right"));
    assertThat(hash.calls).hasValue(2);
  }

  @Test
  void checksRunOneAtATimeAndThoseWithoutATurnAreThrottledWhileRememberedOnesPass()
      throws Exception {
    CountingCheck hash = new CountingCheck();
    CachedPasswordCheck check =
        new CachedPasswordCheck(hash, Duration.ofMinutes(5), Duration.ofMillis(100));
    check.authenticate(login("right")); // remembered from now on
    hash.hold = new CountDownLatch(1);
    hash.entered = new CountDownLatch(1);
    CountingCheck slow = hash;
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      CountDownLatch started = new CountDownLatch(1);
      Future<?> first =
          pool.submit(() -> {
            started.countDown();
            return check.authenticate(login("new-guess-1"));
          });
      started.await();
      assertThat(slow.entered.await(5, TimeUnit.SECONDS)).isTrue();

      assertThatThrownBy(() -> check.authenticate(login("new-guess-2")))
          .isInstanceOf(CachedPasswordCheck.LoginThrottledException.class);
      assertThat(check.authenticate(login("right")).isAuthenticated()).isTrue();

      slow.hold.countDown();
      assertThatThrownBy(first::get).hasCauseInstanceOf(BadCredentialsException.class);
    } finally {
      pool.shutdownNow();
    }
  }
}
