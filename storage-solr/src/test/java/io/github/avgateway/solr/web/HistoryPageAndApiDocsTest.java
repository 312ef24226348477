package io.github.avgateway.solr.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.forwardedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The page is served from the class path under /history/, / leads to it, and the OpenAPI
 * description at /v3/api-docs matches the controller's mappings: every path, its parameters and its
 * error responses.
 */
@SpringBootTest(classes = WebTestApp.class, properties = "avgateway.solr.enabled=false")
@AutoConfigureMockMvc
class HistoryPageAndApiDocsTest {

  @Autowired MockMvc mvc;

  @Autowired
  @Qualifier("requestMappingHandlerMapping")
  RequestMappingHandlerMapping mappings;

  @Test
  void rootAndHistoryLeadToThePage() throws Exception {
    mvc.perform(get("/"))
        .andExpect(status().is3xxRedirection())
        .andExpect(redirectedUrl("/history/"));
    mvc.perform(get("/history"))
        .andExpect(status().is3xxRedirection())
        .andExpect(redirectedUrl("/history/"));
    mvc.perform(get("/history/")).andExpect(forwardedUrl("/history/index.html"));
  }

  @Test
  void thePageAndItsAssetsComeFromTheClassPathWithoutOutsideUrls() throws Exception {
    String html =
        mvc.perform(get("/history/index.html"))
            .andExpect(status().isOk())
            .andExpect(content().contentTypeCompatibleWith(MediaType.TEXT_HTML))
            .andReturn()
            .getResponse()
            .getContentAsString(StandardCharsets.UTF_8);
    assertThat(html).contains("<script src=\"history.js\"", "href=\"history.css\"");
    assertThat(html).doesNotContain("http://", "https://");
    mvc.perform(get("/history/history.js"))
        .andExpect(status().isOk())
        .andExpect(content().string(containsString("location.origin")));
    mvc.perform(get("/history/history.css")).andExpect(status().isOk());
    mvc.perform(get("/history/missing.js")).andExpect(status().isNotFound());
  }

  @Test
  void apiDocsDescribeEveryMappingWithItsParametersAndErrors() throws Exception {
    String json =
        mvc.perform(get("/v3/api-docs"))
            .andExpect(status().isOk())
            .andReturn()
            .getResponse()
            .getContentAsString(StandardCharsets.UTF_8);
    JsonNode docs = JsonMapper.builder().build().readTree(json);
    assertThat(docs.get("info").get("title").asString()).isEqualTo("av-gateway history API");
    JsonNode paths = docs.get("paths");
    Map<String, Set<String>> documented = new TreeMap<>();
    for (String path : paths.propertyNames()) {
      if (path.startsWith("/api/history/")) {
        JsonNode get = paths.get(path).get("get");
        assertThat(get).as(path).isNotNull();
        assertThat(get.get("responses").propertyNames()).as(path).contains("200", "400", "503");
        documented.put(path, names(get.get("parameters")));
      }
    }
    assertThat(documented).isEqualTo(controllerMappings());
    assertThat(paths.get("/api/history/by-request-id").get("get").get("responses").has("404"))
        .isTrue();
  }

  private static Set<String> names(JsonNode parameters) {
    Set<String> names = new TreeSet<>();
    parameters.forEach(p -> names.add(p.get("name").asString()));
    return names;
  }

  /** Path → request parameter names, read from the controller's handler methods. */
  private Map<String, Set<String>> controllerMappings() {
    Map<String, Set<String>> mapped = new TreeMap<>();
    for (Map.Entry<RequestMappingInfo, HandlerMethod> e : mappings.getHandlerMethods().entrySet()) {
      if (e.getValue().getBeanType() != HistoryApiController.class) {
        continue;
      }
      Method method = e.getValue().getMethod();
      Set<String> params =
          Arrays.stream(method.getParameters())
              .filter(p -> p.isAnnotationPresent(RequestParam.class))
              .map(java.lang.reflect.Parameter::getName)
              .collect(Collectors.toCollection(TreeSet::new));
      e.getKey().getPatternValues().forEach(path -> mapped.put(path, params));
    }
    assertThat(mapped).hasSize(8);
    return mapped;
  }
}
