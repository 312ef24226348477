package io.github.avgateway.jms.support;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.logging.Level;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Headless Debian {@code chromium} driven through Debian's {@code chromedriver} (installed by
 * {@code scripts/browser.sh}). Both paths are given explicitly, so Selenium Manager never runs and
 * nothing is downloaded; a machine without them fails the test with what to install. Every browser
 * gets a fresh profile directory and no network services of its own (sync, updates, QUIC).
 */
public final class Chromium {

  static final Path BROWSER =
      Path.of(System.getProperty("avgateway.it.chromium", "/usr/bin/chromium"));
  static final Path DRIVER =
      Path.of(System.getProperty("avgateway.it.chromedriver", "/usr/bin/chromedriver"));

  private Chromium() {}

  /** A headless browser with a {@code width} × {@code height} window; quit it when done. */
  public static ChromeDriver start(Path profile, int width, int height) throws IOException {
    for (Path required : new Path[] {BROWSER, DRIVER}) {
      if (!Files.isExecutable(required)) {
        throw new IllegalStateException(
            required
                + " is missing: run scripts/browser.sh (apt-get install chromium chromium-driver)");
      }
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary(BROWSER.toFile());
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--force-device-scale-factor=1",
        "--lang=en-US",
        "--window-size=" + width + "," + height,
        "--user-data-dir=" + Files.createDirectories(profile));
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(DRIVER.toString()))
            .usingAnyFreePort()
            .withTimeout(Duration.ofSeconds(60))
            .build();
    ChromeDriver driver = new ChromeDriver(service, options);
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
    driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
    return driver;
  }
}
