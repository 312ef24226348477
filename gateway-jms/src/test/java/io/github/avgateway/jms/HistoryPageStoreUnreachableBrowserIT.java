package io.github.avgateway.jms;

import static io.github.avgateway.jms.HistoryPageBrowserIT.PASSWORD;
import static io.github.avgateway.jms.HistoryPageBrowserIT.PATIENCE;
import static io.github.avgateway.jms.HistoryPageBrowserIT.SCREENSHOTS;
import static io.github.avgateway.jms.HistoryPageBrowserIT.USER;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.testing.TcpProxy;
import io.github.avgateway.jms.support.Chromium;
import io.github.avgateway.jms.support.HistoryHttp;
import io.github.avgateway.jms.support.HistoryPageView;
import io.github.avgateway.solr.StandaloneSolr;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The history page in a real headless Chromium when the history store is unreachable: the JMS
 * gateway uses a real standalone Solr over HTTP through a TCP proxy, with a 3 s query timeout (the
 * request timeout stays 10 s). Solr stopped, then hung (the proxy frozen: connections taken,
 * nothing answered): a refresh ends within 8 s with the page saying "History store unreachable" and
 * its last answers dimmed as stale, and a search says so too instead of "nothing found"; Solr back,
 * the page loads again. Screenshots land in {@code target/screenshots/}.
 */
@SpringBootTest(
    classes = GatewayJmsApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext
class HistoryPageStoreUnreachableBrowserIT {

  private static final Logger log =
      LoggerFactory.getLogger(HistoryPageStoreUnreachableBrowserIT.class);

  private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(3);

  /** Generous, the machine being shared; still below the 10 s request timeout. */
  private static final Duration BOUND = Duration.ofSeconds(8);

  private static final String UNREACHABLE = "History store unreachable";

  private static StandaloneSolr solr;
  private static TcpProxy proxy;

  @DynamicPropertySource
  static void gatewayProperties(DynamicPropertyRegistry registry) throws Exception {
    Path data = Files.createTempDirectory("avgw-jms-history-unreachable");
    solr = StandaloneSolr.start(data.resolve("solr-server"));
    proxy = TcpProxy.to(solr.port());
    HistoryPageBrowserIT.gateway(registry, data);
    solr.httpModeProperties(proxy.port()).forEach((key, value) -> registry.add(key, () -> value));
    registry.add("avgateway.solr.query-timeout", QUERY_TIMEOUT::toString);
    registry.add("avgateway.solr.retention.enabled", () -> "false");
  }

  @AfterAll
  static void stopSolr() throws Exception {
    proxy.close();
    solr.close();
  }

  @LocalServerPort int port;
  @TempDir Path profile;
  ChromeDriver browser;

  @AfterEach
  void quit() {
    if (browser != null) {
      browser.quit();
    }
  }

  @Test
  void thePageSaysTheStoreIsUnreachableWhenSolrIsStoppedOrHung() throws Exception {
    HistoryHttp web = new HistoryHttp(port, USER, PASSWORD);
    browser = Chromium.start(profile, 1280, 1000);
    HistoryPageView page = new HistoryPageView(browser, PATIENCE);
    page.open(web.browserUrl("/history/"));
    assertThat(errorBox().isDisplayed()).isFalse();

    solr.stop();
    try {
      assertThatARefreshSaysUnreachableWithin(page, Duration.ZERO, "solr-stopped");
    } finally {
      solr.restart();
    }
    assertThat(page.refresh()).isEqualTo("loaded");
    assertThat(errorBox().isDisplayed()).isFalse();

    proxy.freeze();
    try {
      assertThatARefreshSaysUnreachableWithin(page, QUERY_TIMEOUT, "solr-hung");
      long started = System.nanoTime();
      List<WebElement> rows = page.search("ID:while-solr-hangs");
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(BOUND);
      assertThat(page.text("#search-summary")).startsWith(UNREACHABLE);
      assertThat(rows)
          .singleElement()
          .satisfies(r -> assertThat(r.getText()).contains("the history store did not answer"));
    } finally {
      proxy.thaw();
    }
    assertThat(page.refresh()).isEqualTo("loaded");
    assertThat(errorBox().isDisplayed()).isFalse();
  }

  /** Refreshes; the page ends "store-unreachable", saying so, after at least {@code atLeast}. */
  private void assertThatARefreshSaysUnreachableWithin(
      HistoryPageView page, Duration atLeast, String screenshot) throws Exception {
    long started = System.nanoTime();
    String state = page.refresh();
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    log.info("{}: the page ended {} after {} ms", screenshot, state, took.toMillis());
    assertThat(state).isEqualTo("store-unreachable");
    assertThat(took).isBetween(atLeast.minusMillis(200), BOUND);
    WebElement error = errorBox();
    assertThat(error.isDisplayed()).isTrue();
    assertThat(error.getText()).startsWith(UNREACHABLE).contains("Scanning is not affected");
    assertThat(browser.findElement(By.id("totals")).getCssValue("opacity")).isEqualTo("0.45");
    page.screenshot(SCREENSHOTS.resolve("history-page-" + screenshot + ".png"));
  }

  private WebElement errorBox() {
    return browser.findElement(By.id("error"));
  }
}
