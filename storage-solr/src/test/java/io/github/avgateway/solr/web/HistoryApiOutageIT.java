package io.github.avgateway.solr.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import io.github.avgateway.core.testing.TcpProxy;
import io.github.avgateway.solr.StandaloneSolr;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The history API against a real standalone Solr over HTTP, reached through a TCP proxy, with the
 * default 10 s request timeout and a 3 s query timeout. Solr stopped (connections refused) or hung
 * (the proxy frozen: connections taken, nothing answered): every endpoint answers 503 {@code
 * STORE_UNAVAILABLE} within 8 s — refused at once, hung after about the query timeout, never after
 * the request timeout — and answers 200 again once Solr is back.
 */
@SpringBootTest(classes = HistoryApiOutageIT.App.class)
@AutoConfigureMockMvc
@DirtiesContext
class HistoryApiOutageIT {

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}

  private static final Logger log = LoggerFactory.getLogger(HistoryApiOutageIT.class);

  private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(3);

  /** Generous: the machine is shared; still below the 10 s request timeout. */
  private static final Duration BOUND = Duration.ofSeconds(8);

  private static final List<String> ENDPOINTS =
      List.of(
          "by-request-id?requestId=ID:outage-1",
          "by-sha256?sha256=" + "a".repeat(64),
          "by-verdict?verdict=INFECTED",
          "recent",
          "top-signatures",
          "verdicts-per-hour");

  private static StandaloneSolr solr;
  private static TcpProxy proxy;

  @DynamicPropertySource
  static void solr(DynamicPropertyRegistry registry) throws Exception {
    solr = StandaloneSolr.start(Files.createTempDirectory("avgw-api-outage").resolve("solr"));
    proxy = TcpProxy.to(solr.port());
    solr.httpModeProperties(proxy.port()).forEach((key, value) -> registry.add(key, () -> value));
    registry.add("avgateway.solr.query-timeout", QUERY_TIMEOUT::toString);
    registry.add("avgateway.solr.retention.enabled", () -> "false");
  }

  @AfterAll
  static void stop() throws Exception {
    proxy.close();
    solr.close();
  }

  @Autowired MockMvc mvc;

  @Test
  void solrStoppedEveryEndpointAnswersStoreUnavailableAtOnce() throws Exception {
    everyEndpointAnswers200();
    solr.stop();
    try {
      for (String endpoint : ENDPOINTS) {
        Duration took = answersStoreUnavailable(endpoint);
        assertThat(took).as(endpoint).isLessThan(BOUND);
      }
    } finally {
      solr.restart();
    }
    await().atMost(Duration.ofSeconds(30)).untilAsserted(this::everyEndpointAnswers200);
  }

  @Test
  void solrHungEveryEndpointAnswersStoreUnavailableAfterTheQueryTimeout() throws Exception {
    everyEndpointAnswers200();
    proxy.freeze();
    try {
      for (String endpoint : ENDPOINTS) {
        Duration took = answersStoreUnavailable(endpoint);
        assertThat(took).as(endpoint).isBetween(QUERY_TIMEOUT.minusMillis(200), BOUND);
      }
    } finally {
      proxy.thaw();
    }
    await().atMost(Duration.ofSeconds(30)).untilAsserted(this::everyEndpointAnswers200);
  }

  /** Calls {@code endpoint}, checks the 503 problem document, returns how long the answer took. */
  private Duration answersStoreUnavailable(String endpoint) throws Exception {
    long started = System.nanoTime();
    MockHttpServletResponse response = call(endpoint);
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    log.info("{}: answered {} in {} ms", endpoint, response.getStatus(), took.toMillis());
    assertThat(response.getStatus()).as(endpoint).isEqualTo(503);
    assertThat(response.getContentType()).isEqualTo("application/problem+json");
    JsonNode problem = JsonMapper.builder().build().readTree(body(response));
    assertThat(problem.get("error").asString()).isEqualTo("STORE_UNAVAILABLE");
    assertThat(problem.get("type").asString()).isEqualTo("urn:avgateway:history:store-unavailable");
    assertThat(problem.get("status").asInt()).isEqualTo(503);
    return took;
  }

  private void everyEndpointAnswers200() throws Exception {
    for (String endpoint : ENDPOINTS) {
      MockHttpServletResponse response = call(endpoint);
      int expected = endpoint.startsWith("by-request-id") ? 404 : 200; // no such request: found 0
      assertThat(response.getStatus()).as(endpoint + ": " + body(response)).isEqualTo(expected);
    }
  }

  private MockHttpServletResponse call(String endpoint) throws Exception {
    return mvc.perform(get(URI.create("/api/history/" + endpoint))).andReturn().getResponse();
  }

  private static String body(MockHttpServletResponse response) throws Exception {
    return response.getContentAsString(StandardCharsets.UTF_8);
  }
}
