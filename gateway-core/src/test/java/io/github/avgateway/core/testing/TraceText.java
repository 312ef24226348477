package io.github.avgateway.core.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * A trace as Zipkin's API returned it, written as text: one line per span, children indented under
 * their parent in start order, with service, name, kind, duration and tags. The tracing ITs leave
 * one in {@code target/zipkin/} for the README's "what a trace looks like".
 */
public final class TraceText {

  private TraceText() {}

  /** Writes the rendering of {@code spans} to {@code target/zipkin/trace-<traceId>.txt}. */
  public static Path write(String traceId, List<JsonNode> spans) throws IOException {
    Path file = Path.of("target", "zipkin", "trace-" + traceId + ".txt");
    Files.createDirectories(file.getParent());
    return Files.writeString(file, render(spans));
  }

  /** The spans as indented lines, roots (spans whose parent is not in the trace) first. */
  public static String render(List<JsonNode> spans) {
    Map<String, JsonNode> byId =
        spans.stream().collect(Collectors.toMap(s -> s.path("id").asString(), s -> s, (a, b) -> a));
    List<String> lines = new ArrayList<>();
    sorted(spans.stream().filter(s -> !byId.containsKey(parent(s))).toList())
        .forEach(root -> append(root, 0, spans, lines));
    return String.join("\n", lines) + "\n";
  }

  private static void append(JsonNode span, int depth, List<JsonNode> spans, List<String> lines) {
    lines.add(line(span, depth));
    String id = span.path("id").asString();
    sorted(spans.stream().filter(s -> id.equals(parent(s))).toList())
        .forEach(child -> append(child, depth + 1, spans, lines));
  }

  private static String line(JsonNode span, int depth) {
    Map<String, String> tags = new TreeMap<>();
    span.path("tags").properties().forEach(e -> tags.put(e.getKey(), e.getValue().asString()));
    String tagText =
        tags.entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(" "));
    return String.format(
            "%-16s %-22s %-9s %9.3f ms  %s",
            span.path("localEndpoint").path("serviceName").asString(),
            "  ".repeat(depth) + span.path("name").asString(),
            span.path("kind").asString(""),
            span.path("duration").asLong() / 1000.0,
            tagText)
        .stripTrailing();
  }

  private static List<JsonNode> sorted(List<JsonNode> spans) {
    return spans.stream()
        .sorted(Comparator.comparingLong(s -> s.path("timestamp").asLong()))
        .toList();
  }

  private static String parent(JsonNode span) {
    return span.path("parentId").asString("");
  }
}
