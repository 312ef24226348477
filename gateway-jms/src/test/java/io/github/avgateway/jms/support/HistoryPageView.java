package io.github.avgateway.jms.support;

import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * The history page as a person sees it in the browser: what it shows and its search box. Waits
 * (polling, bounded by {@code patience}) for the page's own "loaded" markers before reading.
 */
public record HistoryPageView(ChromeDriver browser, Duration patience) {

  /** Opens {@code url} and waits until the page has rendered the store's answers. */
  public void open(String url) {
    browser.get(url);
    await()
        .atMost(patience)
        .until(() -> "loaded".equals(attribute(By.tagName("body"), "data-state")));
  }

  /**
   * Clicks Refresh and waits until the page has finished loading; returns the state it ended in
   * ({@code loaded}, {@code store-unreachable} or {@code failed}).
   */
  public String refresh() {
    browser.executeScript("document.body.dataset.state = 'waiting'");
    browser.findElement(By.id("refresh")).click();
    await()
        .atMost(patience)
        .until(() ->
            !List.of("waiting", "loading").contains(attribute(By.tagName("body"), "data-state")));
    return attribute(By.tagName("body"), "data-state");
  }

  public String text(String css) {
    return browser.findElement(By.cssSelector(css)).getText();
  }

  public List<WebElement> all(String css) {
    return browser.findElements(By.cssSelector(css));
  }

  /** The chart's bars added up per verdict (each bar carries its count). */
  public Map<String, Integer> chartCounts() {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (WebElement bar : all("#chart svg rect[data-verdict]")) {
      counts.merge(
          bar.getAttribute("data-verdict"),
          Integer.parseInt(bar.getAttribute("data-count")),
          Integer::sum);
    }
    return counts;
  }

  /** "signature count" per entry of the top signatures, in the page's order. */
  public List<String> topSignatures() {
    List<String> entries = new ArrayList<>();
    for (WebElement item : all("#top-signatures li[data-signature]")) {
      entries.add(item.getAttribute("data-signature") + " " + item.getAttribute("data-count"));
    }
    return entries;
  }

  /** Types {@code query} into the search box, submits, and returns the result rows. */
  public List<WebElement> search(String query) {
    WebElement input = browser.findElement(By.id("search-input"));
    input.clear();
    input.sendKeys(query);
    browser.executeScript("document.getElementById('search-results').dataset.state = 'waiting'");
    browser.findElement(By.cssSelector("#search-form button[type=submit]")).click();
    await()
        .atMost(patience)
        .until(() -> "loaded".equals(attribute(By.id("search-results"), "data-state")));
    return all("#search-results tbody tr");
  }

  /** Console errors the page caused since the last call (failed requests included). */
  public List<String> consoleErrors() {
    return browser.manage().logs().get(LogType.BROWSER).getAll().stream()
        .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
        .map(LogEntry::getMessage)
        .toList();
  }

  /** Saves what the window shows as a PNG. */
  public void screenshot(Path file) throws Exception {
    Files.createDirectories(file.getParent());
    Files.write(file, browser.getScreenshotAs(OutputType.BYTES));
  }

  private String attribute(By element, String name) {
    return browser.findElement(element).getAttribute(name);
  }
}
