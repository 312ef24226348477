package io.github.avgateway.jms.support;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/**
 * The gateway's web side as a client reaches it: base URL on 127.0.0.1, and basic-auth credentials
 * that go along with every request (a gateway without security ignores them). The browser gets them
 * in its first URL ({@code http://user:password@host/}); the page's own requests then reuse them.
 */
public record HistoryHttp(int port, String user, String password) {

  public String baseUrl() {
    return "http://127.0.0.1:" + port;
  }

  /** The URL the browser opens first, with the credentials in it. */
  public String browserUrl(String path) {
    return "http://" + user + ":" + password + "@127.0.0.1:" + port + path;
  }

  /** GET {@code path}; the response body, whatever its status. */
  public HttpResponse<String> get(String path) throws Exception {
    String token =
        Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(baseUrl() + path))
            .header("Authorization", "Basic " + token)
            .header("Accept", "application/json")
            .timeout(Duration.ofSeconds(30))
            .build();
    try (HttpClient client =
        HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()) {
      return client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
  }
}
