package io.github.avgateway.core.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/**
 * Calls a gateway's HTTP endpoints on 127.0.0.1, anonymously or with basic authentication, and
 * reads Prometheus text. For the operations ITs of both front-ends.
 */
public final class HttpProbe {

  /** One answer: status and body. */
  public record Answer(int status, String body) {}

  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final int port;

  public HttpProbe(int port) {
    this.port = port;
  }

  /** GET {@code path} without credentials. */
  public Answer get(String path) {
    return send(request(path).build());
  }

  /** GET {@code path} as {@code user}. */
  public Answer get(String path, String user, String password) {
    String token =
        Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    return send(request(path).header("Authorization", "Basic " + token).build());
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(30))
        .GET();
  }

  private Answer send(HttpRequest request) {
    try {
      HttpResponse<String> response =
          client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      return new Answer(response.statusCode(), response.body());
    } catch (IOException e) {
      throw new IllegalStateException("GET " + request.uri() + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /**
   * The sum of the samples of {@code metric} (exact name, e.g. {@code avgateway_scans_total}) whose
   * label set contains every one of {@code labels} (e.g. {@code verdict="CLEAN"}); 0 when there is
   * none. NaN samples are skipped.
   */
  public static double sum(String prometheusText, String metric, String... labels) {
    double total = 0;
    for (String line : prometheusText.lines().toList()) {
      if (line.startsWith("#") || !matchesName(line, metric) || !hasLabels(line, labels)) {
        continue;
      }
      double value = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      if (!Double.isNaN(value)) {
        total += value;
      }
    }
    return total;
  }

  /**
   * The Prometheus text at {@code /actuator/prometheus}, read as {@code user}; fails unless it
   * answered 200.
   */
  public String prometheus(String user, String password) {
    Answer answer = get("/actuator/prometheus", user, password);
    if (answer.status() != 200) {
      throw new AssertionError("/actuator/prometheus answered " + answer.status());
    }
    return answer.body();
  }

  /** How much {@link #sum} of {@code metric} with {@code labels} grew from {@code before}. */
  public static double delta(String before, String after, String metric, String... labels) {
    return sum(after, metric, labels) - sum(before, metric, labels);
  }

  /** Whether any sample line of {@code metric} exists. */
  public static boolean has(String prometheusText, String metric) {
    for (String line : prometheusText.lines().toList()) {
      if (!line.startsWith("#") && matchesName(line, metric)) {
        return true;
      }
    }
    return false;
  }

  private static boolean matchesName(String line, String metric) {
    return line.startsWith(metric + "{") || line.startsWith(metric + " ");
  }

  private static boolean hasLabels(String line, String... labels) {
    for (String label : labels) {
      if (!line.contains(label)) {
        return false;
      }
    }
    return true;
  }
}
