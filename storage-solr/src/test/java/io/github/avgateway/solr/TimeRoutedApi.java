package io.github.avgateway.solr;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The history API (what the history page reads) of a servlet application with every
 * auto-configuration on the test class path, called through MockMvc: the gateway's own web layer
 * over whatever store its properties name.
 */
final class TimeRoutedApi {

  /** The application: auto-configuration only, as the gateways' web layer. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class Gateway {}

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final MockMvc mvc;

  TimeRoutedApi(WebApplicationContext context) {
    this.mvc = MockMvcBuilders.webAppContextSetup(context).build();
  }

  /** {@code GET /api/history/<pathAndQuery>}, answered 200, as JSON. */
  JsonNode get200(String pathAndQuery) throws Exception {
    String body =
        mvc.perform(get(URI.create("/api/history/" + pathAndQuery)))
            .andExpect(status().isOk())
            .andReturn()
            .getResponse()
            .getContentAsString(StandardCharsets.UTF_8);
    return JSON.readTree(body);
  }
}
