package io.github.avgateway.solr.web;

import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.solr.HistoryDocs;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

/**
 * Every failed history API request is answered with a typed problem document: 400 naming the bad
 * parameter, 404 for an unknown request id, 503 when the store does not answer.
 */
@SpringBootTest(classes = WebTestApp.class, properties = "avgateway.solr.enabled=false")
@AutoConfigureMockMvc
class HistoryApiErrorsTest {

  private static final Instant T0 = Instant.parse("2001-02-03T10:00:00Z");
  private static final String SHA_A = "a".repeat(64);

  @Autowired MockMvc mvc;
  @Autowired ListHistoryQueries queries;

  @BeforeEach
  void reset() {
    queries.clear();
  }

  private static MessageInfo doc(String id, Verdict verdict, Instant at, String sha) {
    return HistoryDocs.message("web", id, verdict, at, sha, List.of());
  }

  private ResultActions call(String path) throws Exception {
    return mvc.perform(get(URI.create("/api/history/" + path)).accept(MediaType.APPLICATION_JSON));
  }

  private void expectBadParameter(String path, String parameter, String detail) throws Exception {
    call(path)
        .andExpect(status().isBadRequest())
        .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
        .andExpect(jsonPath("$.type").value("urn:avgateway:history:bad-parameter"))
        .andExpect(jsonPath("$.error").value("BAD_PARAMETER"))
        .andExpect(jsonPath("$.status").value(400))
        .andExpect(jsonPath("$.parameter").value(parameter))
        .andExpect(jsonPath("$.detail", containsString(detail)));
  }

  @Test
  void byRequestIdAnswers404ForAnUnknownIdOrAnotherTransport() throws Exception {
    queries.add(doc("r-1", Verdict.CLEAN, T0, SHA_A));
    for (String path :
        List.of("by-request-id?requestId=nope", "by-request-id?requestId=r-1&transport=jms")) {
      call(path)
          .andExpect(status().isNotFound())
          .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
          .andExpect(jsonPath("$.error").value("NOT_FOUND"))
          .andExpect(jsonPath("$.type").value("urn:avgateway:history:not-found"));
    }
  }

  @Test
  void byRequestIdRejectsBadParameters() throws Exception {
    expectBadParameter("by-request-id", "requestId", "required");
    expectBadParameter("by-request-id?requestId=%20", "requestId", "not blank");
    expectBadParameter("by-request-id?requestId=r-1&transport=No%20Such", "transport", "transport");
  }

  @Test
  void bySha256RejectsBadParameters() throws Exception {
    expectBadParameter("by-sha256", "sha256", "required");
    expectBadParameter("by-sha256?sha256=xyz", "sha256", "64 hexadecimal digits");
    expectBadParameter("by-sha256?sha256=" + SHA_A + "&limit=0", "limit", "from 1 to 500");
    expectBadParameter("by-sha256?sha256=" + SHA_A + "&limit=501", "limit", "from 1 to 500");
    expectBadParameter("by-sha256?sha256=" + SHA_A + "&limit=ten", "limit", "was 'ten'");
  }

  @Test
  void rangesAndLimitsOfTheOtherQueriesAreChecked() throws Exception {
    expectBadParameter("top-signatures?limit=-1", "limit", "from 1 to 500");
    expectBadParameter(
        "verdicts-per-hour?from=2001-01-01T00:00:00Z&to=2001-02-03T00:00:00Z", "from", "31 days");
  }

  @Test
  void byVerdictRejectsBadParameters() throws Exception {
    expectBadParameter("by-verdict", "verdict", "required");
    expectBadParameter(
        "by-verdict?verdict=BAD", "verdict", "one of [CLEAN, INFECTED, UNSCANNABLE, ERROR]");
    expectBadParameter("by-verdict?verdict=CLEAN&from=yesterday", "from", "ISO-8601 instant");
    expectBadParameter(
        "by-verdict?verdict=CLEAN&from=2001-02-03T11:00:00Z&to=2001-02-03T10:00:00Z",
        "from",
        "before to");
    expectBadParameter("by-verdict?verdict=CLEAN&size=0", "size", "from 1 to 500");
    expectBadParameter("by-verdict?verdict=CLEAN&cursor=%3Cscript%3E", "cursor", "cursor");
    expectBadParameter("by-verdict?verdict=CLEAN&cursor=abc", "cursor", "store issued");
  }

  @Test
  void aStoreThatDoesNotAnswerGives503() throws Exception {
    queries.failWith(new IllegalStateException("solr is down (test)"));
    call("recent")
        .andExpect(status().isServiceUnavailable())
        .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
        .andExpect(jsonPath("$.error").value("STORE_UNAVAILABLE"))
        .andExpect(jsonPath("$.detail").value("the history store did not answer"));
  }
}
