package io.github.avgateway.solr.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.hasSize;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.port.HistoryRecorder;
import io.github.avgateway.core.port.SignatureCount;
import io.github.avgateway.core.port.TimeRange;
import io.github.avgateway.solr.HistoryDocs;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The history API over the real store: the embedded Solr of the default configuration, documents
 * written by the recorder, real cursors followed page by page.
 */
@SpringBootTest(classes = HistoryApiSolrIT.App.class)
@AutoConfigureMockMvc
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HistoryApiSolrIT {

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}

  private static final Instant H10 = Instant.parse("2001-02-03T10:00:00Z");
  private static final String RANGE = "from=2001-02-03T09:00:00Z&to=2001-02-03T13:00:00Z";
  private static final String SHA_X = "1".repeat(64);
  private static final String SHA_Y = "2".repeat(64);
  private static final String EICAR = "Eicar-Test-Signature";
  private static final String OTHER = "Other-Signature";

  @DynamicPropertySource
  static void solr(DynamicPropertyRegistry registry) throws Exception {
    Path home = Files.createTempDirectory("avgw-web-solr");
    registry.add("avgateway.solr.embedded.home", home::toString);
    // The documents are from 2001: a purge by age would delete them.
    registry.add("avgateway.solr.retention.enabled", () -> "false");
  }

  @Autowired MockMvc mvc;
  @Autowired HistoryRecorder recorder;
  @Autowired HistoryQueries queries;

  private static MessageInfo doc(
      String id, Verdict verdict, int minutes, String sha, String... sigs) {
    return HistoryDocs.message(
        "web-it", id, verdict, H10.plusSeconds(60L * minutes), sha, List.of(sigs));
  }

  @BeforeAll
  void record() throws Exception {
    List<CompletableFuture<Void>> accepted = new ArrayList<>();
    for (MessageInfo d :
        List.of(
            doc("w-1", Verdict.CLEAN, 5, SHA_X),
            doc("w-2", Verdict.INFECTED, 20, SHA_Y, EICAR),
            doc("w-3", Verdict.INFECTED, 70, SHA_Y, EICAR, OTHER),
            doc("w-4", Verdict.UNSCANNABLE, 80, SHA_X),
            doc("w-5", Verdict.INFECTED, 150, SHA_Y, EICAR))) {
      accepted.add(recorder.record(d));
    }
    CompletableFuture.allOf(accepted.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    TimeRange all = new TimeRange(H10.minusSeconds(3600), H10.plusSeconds(4 * 3600));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() ->
            queries.topSignatures(all, 5).stream().mapToLong(SignatureCount::count).sum() == 4);
  }

  private ResultActions call(String pathAndQuery) throws Exception {
    return mvc.perform(get(URI.create("/api/history/" + pathAndQuery)));
  }

  private JsonNode json(String pathAndQuery) throws Exception {
    String body =
        call(pathAndQuery)
            .andExpect(status().isOk())
            .andReturn()
            .getResponse()
            .getContentAsString(StandardCharsets.UTF_8);
    return JsonMapper.builder().build().readTree(body);
  }

  @Test
  void byRequestIdAndBySha256() throws Exception {
    call("by-request-id?requestId=w-3")
        .andExpect(status().isOk())
        .andExpect(jsonPath("$.signatures", contains(EICAR, OTHER)))
        .andExpect(jsonPath("$.receivedAt").value("2001-02-03T11:10:00Z"));
    call("by-request-id?requestId=w-404").andExpect(status().isNotFound());
    call("by-sha256?sha256=" + SHA_Y)
        .andExpect(jsonPath("$[*].requestId", contains("w-5", "w-3", "w-2")));
  }

  @Test
  void byVerdictFollowsTheStoresCursorsToTheLastPage() throws Exception {
    JsonNode first = json("by-verdict?verdict=INFECTED&size=2&" + RANGE);
    assertThat(first.get("last").asBoolean()).isFalse();
    String next = first.get("next").asString();
    JsonNode second = json("by-verdict?verdict=INFECTED&size=2&" + RANGE + "&cursor=" + next);
    List<String> ids = new ArrayList<>();
    first.get("documents").forEach(d -> ids.add(d.get("requestId").asString()));
    second.get("documents").forEach(d -> ids.add(d.get("requestId").asString()));
    assertThat(ids).containsExactly("w-5", "w-3", "w-2");
    assertThat(second.get("last").asBoolean()).isTrue();
    assertThat(second.get("next").isNull()).isTrue();
  }

  @Test
  void recentTopSignaturesAndHourlyCounts() throws Exception {
    call("recent?limit=4&" + RANGE)
        .andExpect(jsonPath("$[*].requestId", contains("w-5", "w-4", "w-3", "w-2")));
    call("top-signatures?" + RANGE)
        .andExpect(jsonPath("$[*].signature", contains(EICAR, OTHER)))
        .andExpect(jsonPath("$[*].count", contains(3, 1)));
    call("verdicts-per-hour?from=2001-02-03T10:00:00Z&to=2001-02-03T13:00:00Z")
        .andExpect(jsonPath("$", hasSize(3)))
        .andExpect(jsonPath("$[*].counts.CLEAN", contains(1, 0, 0)))
        .andExpect(jsonPath("$[*].counts.INFECTED", contains(1, 1, 1)))
        .andExpect(jsonPath("$[*].counts.UNSCANNABLE", contains(0, 1, 0)));
  }

  @Test
  void aCursorTheStoreNeverIssuedIsABadParameter() throws Exception {
    call("by-verdict?verdict=INFECTED&cursor=AoE%3D&" + RANGE)
        .andExpect(status().isBadRequest())
        .andExpect(jsonPath("$.parameter").value("cursor"));
  }
}
