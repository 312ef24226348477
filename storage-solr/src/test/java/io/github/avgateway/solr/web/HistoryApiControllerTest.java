package io.github.avgateway.solr.web;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.either;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.solr.HistoryDocs;
import java.net.URI;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

/**
 * The history API's answers as a client sees them (MockMvc, the application's auto-configuration),
 * over a list-backed {@link ListHistoryQueries}; its errors: {@link HistoryApiErrorsTest}.
 */
@SpringBootTest(classes = WebTestApp.class, properties = "avgateway.solr.enabled=false")
@AutoConfigureMockMvc
class HistoryApiControllerTest {

  private static final Instant T0 = Instant.parse("2001-02-03T10:00:00Z");
  private static final String SHA_A = "a".repeat(64);
  private static final String SHA_B = "b".repeat(64);
  private static final String EICAR = "Eicar-Test-Signature";

  @Autowired MockMvc mvc;
  @Autowired ListHistoryQueries queries;

  @BeforeEach
  void reset() {
    queries.clear();
  }

  private static MessageInfo doc(String id, Verdict verdict, Instant at, String sha) {
    List<String> sigs = verdict == Verdict.INFECTED ? List.of(EICAR) : List.of();
    return HistoryDocs.message("web", id, verdict, at, sha, sigs);
  }

  private ResultActions call(String path) throws Exception {
    return mvc.perform(get(URI.create("/api/history/" + path)).accept(MediaType.APPLICATION_JSON));
  }

  @Test
  void byRequestIdFindsTheDocumentOnAnyConfiguredTransport() throws Exception {
    queries.add(doc("r-1", Verdict.INFECTED, T0, SHA_A));
    call("by-request-id?requestId=r-1")
        .andExpect(status().isOk())
        .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
        .andExpect(jsonPath("$.requestId").value("r-1"))
        .andExpect(jsonPath("$.transport").value("amqp"))
        .andExpect(jsonPath("$.verdict").value("INFECTED"))
        .andExpect(jsonPath("$.signatures[0]").value(EICAR))
        .andExpect(jsonPath("$.receivedAt").value("2001-02-03T10:00:00Z"))
        .andExpect(jsonPath("$.sha256").value(SHA_A));
    call("by-request-id?requestId=r-1&transport=amqp").andExpect(status().isOk());
  }

  @Test
  void bySha256ReturnsNewestFirstAndAcceptsUpperCase() throws Exception {
    queries.add(
        doc("s-1", Verdict.CLEAN, T0, SHA_A),
        doc("s-2", Verdict.CLEAN, T0.plusSeconds(60), SHA_A),
        doc("s-3", Verdict.CLEAN, T0.plusSeconds(30), SHA_B));
    call("by-sha256?sha256=" + SHA_A.toUpperCase(Locale.ROOT))
        .andExpect(status().isOk())
        .andExpect(jsonPath("$", hasSize(2)))
        .andExpect(jsonPath("$[0].requestId").value("s-2"))
        .andExpect(jsonPath("$[1].requestId").value("s-1"));
    call("by-sha256?limit=1&sha256=" + SHA_A).andExpect(jsonPath("$", hasSize(1)));
    call("by-sha256?sha256=" + "c".repeat(64))
        .andExpect(status().isOk())
        .andExpect(jsonPath("$", hasSize(0)));
  }

  @Test
  void byTraceIdReturnsTheTracesDocumentsNewestFirstAndAcceptsUpperCase() throws Exception {
    String trace = "4bf92f3577b34da6a3ce929d0e0e4736";
    queries.add(
        doc("t-1", Verdict.CLEAN, T0, SHA_A).withTraceId(trace),
        doc("t-2", Verdict.INFECTED, T0.plusSeconds(60), SHA_B).withTraceId(trace),
        doc("t-3", Verdict.CLEAN, T0.plusSeconds(30), SHA_A));
    call("by-trace-id?traceId=" + trace.toUpperCase(Locale.ROOT))
        .andExpect(status().isOk())
        .andExpect(jsonPath("$", hasSize(2)))
        .andExpect(jsonPath("$[0].requestId").value("t-2"))
        .andExpect(jsonPath("$[0].traceId").value(trace))
        .andExpect(jsonPath("$[1].requestId").value("t-1"));
    call("by-trace-id?limit=1&traceId=" + trace).andExpect(jsonPath("$", hasSize(1)));
    call("by-trace-id?traceId=" + "c".repeat(32)).andExpect(jsonPath("$", hasSize(0)));
    call("by-trace-id?traceId=not-a-trace-id")
        .andExpect(status().isBadRequest())
        .andExpect(jsonPath("$.error").value("BAD_PARAMETER"))
        .andExpect(jsonPath("$.parameter").value("traceId"));
  }

  @Test
  void byVerdictPagesWithTheNextCursor() throws Exception {
    queries.add(
        doc("v-1", Verdict.INFECTED, T0, SHA_A),
        doc("v-2", Verdict.INFECTED, T0.plusSeconds(10), SHA_A),
        doc("v-3", Verdict.INFECTED, T0.plusSeconds(20), SHA_A),
        doc("v-4", Verdict.CLEAN, T0.plusSeconds(30), SHA_A));
    String range = "&from=2001-02-03T09:00:00Z&to=2001-02-03T11:00:00Z";
    call("by-verdict?verdict=INFECTED&size=2" + range)
        .andExpect(status().isOk())
        .andExpect(jsonPath("$.documents[*].requestId").value(contains("v-3", "v-2")))
        .andExpect(jsonPath("$.last").value(false))
        .andExpect(jsonPath("$.next").value("2"));
    call("by-verdict?verdict=INFECTED&size=2&cursor=2" + range)
        .andExpect(jsonPath("$.documents[*].requestId").value(contains("v-1")))
        .andExpect(jsonPath("$.last").value(true))
        .andExpect(jsonPath("$.next").value(nullValue()));
  }

  @Test
  void recentMergesVerdictsNewestFirstWithinTheLastDayByDefault() throws Exception {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    queries.add(
        doc("n-old", Verdict.CLEAN, now.minus(2, ChronoUnit.DAYS), SHA_A),
        doc("n-1", Verdict.CLEAN, now.minusSeconds(50), SHA_A),
        doc("n-2", Verdict.INFECTED, now.minusSeconds(40), SHA_B),
        doc("n-3", Verdict.ERROR, now.minusSeconds(30), SHA_B),
        doc("n-4", Verdict.UNSCANNABLE, now.minusSeconds(20), SHA_B),
        doc("n-5", Verdict.CLEAN, now.minusSeconds(10), SHA_A));
    call("recent?limit=3")
        .andExpect(status().isOk())
        .andExpect(jsonPath("$[*].requestId").value(contains("n-5", "n-4", "n-3")));
    call("recent")
        .andExpect(jsonPath("$", hasSize(5)))
        .andExpect(jsonPath("$[4].requestId").value("n-1"));
  }

  @Test
  void topSignaturesCountsWithinTheRange() throws Exception {
    queries.add(
        doc("t-1", Verdict.INFECTED, T0, SHA_A),
        doc("t-2", Verdict.INFECTED, T0.plusSeconds(1), SHA_A),
        doc("t-3", Verdict.INFECTED, T0.minus(1, ChronoUnit.DAYS), SHA_A));
    call("top-signatures?from=2001-02-03T09:00:00Z&to=2001-02-03T11:00:00Z")
        .andExpect(status().isOk())
        .andExpect(jsonPath("$", hasSize(1)))
        .andExpect(jsonPath("$[0].signature").value(EICAR))
        .andExpect(jsonPath("$[0].count").value(2));
  }

  @Test
  void verdictsPerHourHasEveryHourOfTheRange() throws Exception {
    queries.add(
        doc("h-1", Verdict.CLEAN, T0.plusSeconds(60), SHA_A),
        doc("h-2", Verdict.INFECTED, T0.plusSeconds(2 * 3600 + 5), SHA_A));
    call("verdicts-per-hour?from=2001-02-03T10:00:00Z&to=2001-02-03T13:00:00Z")
        .andExpect(status().isOk())
        .andExpect(jsonPath("$", hasSize(3)))
        .andExpect(jsonPath("$[0].hour").value("2001-02-03T10:00:00Z"))
        .andExpect(jsonPath("$[0].counts.CLEAN").value(1))
        .andExpect(jsonPath("$[0].counts.INFECTED").value(0))
        .andExpect(jsonPath("$[1].counts.CLEAN").value(0))
        .andExpect(jsonPath("$[2].counts.INFECTED").value(1))
        .andExpect(jsonPath("$[2].counts.ERROR").value(0));
    call("verdicts-per-hour").andExpect(jsonPath("$", hasSize(either(is(24)).or(is(25)))));
  }
}
