package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.clamd.SelfTestProbes;
import io.github.avgateway.core.contract.ContractFiles;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.jms.client.AvScanClient;
import io.github.avgateway.jms.config.JmsProperties;
import io.github.avgateway.jms.support.Chromium;
import io.github.avgateway.jms.support.HistoryHttp;
import io.github.avgateway.jms.support.HistoryPageView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The history page in a real headless Chromium: the JMS gateway (embedded Artemis, the real clamd
 * of scripts/services.sh, embedded Solr in a fresh directory) scans real files, and the page shows
 * them — totals, the hourly chart, top signatures, recent scans — and finds them by SHA-256 and by
 * request id. Screenshots land in {@code target/screenshots/}.
 */
@SpringBootTest(
    classes = GatewayJmsApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class HistoryPageBrowserIT {

  /** Basic-auth credentials the gateway is given and the browser sends with every request. */
  static final String USER = "history-it";

  static final String PASSWORD = "history-it-secret";
  static final Path SCREENSHOTS = Path.of("target", "screenshots");
  static final Duration PATIENCE = Duration.ofSeconds(60);

  @DynamicPropertySource
  static void gatewayProperties(DynamicPropertyRegistry registry) throws Exception {
    gateway(registry, Files.createTempDirectory("avgw-jms-history-page"));
  }

  /**
   * The gateway of the page tests: web on 127.0.0.1 with {@link #USER}, embedded Artemis and Solr
   * under {@code data}, the real clamd.
   */
  static void gateway(DynamicPropertyRegistry registry, Path data) {
    registry.add("server.address", () -> "127.0.0.1");
    registry.add("avgateway.http.username", () -> USER);
    registry.add("avgateway.http.password", () -> PASSWORD);
    registry.add("avgateway.jms.url", () -> "tcp://127.0.0.1:" + TestEnv.freePort());
    registry.add("avgateway.jms.embedded.data-dir", () -> data.resolve("artemis").toString());
    registry.add("avgateway.solr.embedded.home", () -> data.resolve("solr").toString());
    registry.add("avgateway.clamd.endpoints", () -> TestEnv.clamdEndpoint());
  }

  @LocalServerPort int port;
  @Autowired JmsProperties properties;
  @TempDir Path profile;
  ChromeDriver browser;

  @AfterEach
  void quit() {
    if (browser != null) {
      browser.quit();
    }
  }

  @Test
  void thePageShowsRealScansAndFindsThemBySha256AndRequestId() throws Exception {
    HistoryHttp web = new HistoryHttp(port, USER, PASSWORD);
    Map<String, ScanResult> scans = scanFiles();
    await()
        .atMost(PATIENCE)
        .until(() -> recentCount(web) == scans.size()); // visible after Solr's soft commit
    assertThat(web.get("/v3/api-docs").body()).contains("/api/history/by-sha256");
    assertThat(web.get("/swagger-ui/index.html").statusCode()).isEqualTo(200);

    browser = Chromium.start(profile, 1440, 1500);
    HistoryPageView page = new HistoryPageView(browser, PATIENCE);
    page.open(web.browserUrl("/"));
    assertThat(browser.getCurrentUrl()).endsWith("/history/");
    assertThat(page.text("#total-CLEAN")).isEqualTo("3");
    assertThat(page.text("#total-INFECTED")).isEqualTo("4");
    assertThat(page.text("#total-UNSCANNABLE")).isEqualTo("1");
    assertThat(page.text("#total-ERROR")).isEqualTo("0");
    assertThat(page.chartCounts())
        .containsExactlyInAnyOrderEntriesOf(Map.of("CLEAN", 3, "INFECTED", 4, "UNSCANNABLE", 1));
    assertThat(page.topSignatures())
        .containsExactly(ContractFiles.EICAR_SIGNATURE + " 3", "ClamAV-Test-File.UNOFFICIAL 1");
    List<WebElement> rows = page.all("#recent tbody tr");
    assertThat(rows).hasSize(scans.size());
    assertThat(rows.getFirst().getAttribute("data-request-id"))
        .isEqualTo(scans.get("secret.zip").requestId()); // the last one sent, newest first
    assertThat(page.text("#recent"))
        .contains(
            "notes <draft>.txt", "quarterly-report.pdf", "invoice.zip", "clam.exe", "ENCRYPTED");
    assertThat(page.all("#recent td.file *")).isEmpty();
    page.screenshot(SCREENSHOTS.resolve("history-page.png"));

    List<WebElement> bySha = page.search(scans.get("eicar.com").sha256());
    assertThat(bySha).hasSize(2);
    assertThat(bySha).allSatisfy(r -> assertThat(r.getText()).contains("INFECTED", "eicar.com"));
    assertThat(page.text("#search-summary")).startsWith("2 scans of SHA-256");
    page.screenshot(SCREENSHOTS.resolve("history-search-sha256.png"));

    List<WebElement> byId = page.search(scans.get("clam.exe").requestId());
    assertThat(byId)
        .singleElement()
        .satisfies(
            r -> assertThat(r.getText()).contains("clam.exe", "ClamAV-Test-File.UNOFFICIAL"));
    assertThat(page.consoleErrors()).isEmpty();

    assertThat(page.search("ID:no-such-request"))
        .singleElement()
        .satisfies(r -> assertThat(r.getText()).contains("nothing found"));
    assertThat(page.text("#search-summary"))
        .isEqualTo("No scan with request id or correlation id ID:no-such-request");
    assertThat(page.consoleErrors()) // Chromium reports the API's 404 answer, nothing else
        .singleElement()
        .satisfies(m -> assertThat(m).contains("/api/history/by-request-id", "404"));
  }

  /**
   * Eight real files through the gateway, in order, by file name (the first EICAR as eicar-again).
   */
  private Map<String, ScanResult> scanFiles() throws Exception {
    Map<String, byte[]> files = new LinkedHashMap<>();
    files.put("notes <draft>.txt", ContractFiles.clean(1)); // markup in a name stays text
    files.put("quarterly-report.pdf", ContractFiles.large(200 * 1024, 2));
    files.put("photo.jpg", ContractFiles.large(64 * 1024, 3));
    files.put("eicar.com", ContractFiles.eicar());
    files.put("invoice.zip", SelfTestProbes.zip("invoice.exe", ContractFiles.eicar()));
    files.put("clam.exe", Files.readAllBytes(Path.of("/usr/share/clamav-testfiles/clam.exe")));
    files.put("secret.zip", SelfTestProbes.encryptedZip());
    Map<String, ScanResult> results = new LinkedHashMap<>();
    try (AvScanClient client =
        AvScanClient.connect(properties.url(), null, null, properties.requestQueue(), PATIENCE)) {
      results.put(
          "eicar-again", client.scan(ContractFiles.eicar(), "eicar.com").get(60, TimeUnit.SECONDS));
      for (Map.Entry<String, byte[]> file : files.entrySet()) {
        results.put(
            file.getKey(), client.scan(file.getValue(), file.getKey()).get(60, TimeUnit.SECONDS));
      }
    }
    return results;
  }

  private static int recentCount(HistoryHttp web) throws Exception {
    var response = web.get("/api/history/recent?limit=50");
    assertThat(response.statusCode()).isEqualTo(200);
    return JsonMapper.builder().build().readTree(response.body()).size();
  }
}
