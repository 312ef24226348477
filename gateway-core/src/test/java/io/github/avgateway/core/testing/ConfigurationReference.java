package io.github.avgateway.core.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Compares {@code docs/configuration.md} with the configuration metadata that Spring Boot's
 * configuration processor generated from the {@code @ConfigurationProperties} records on the class
 * path. A table row is {@code | `key` | default | meaning |}, the default in backticks or {@code
 * (none)}. Only the {@code avgateway.<group>} groups present on the class path are compared, so
 * each front-end's test checks the core's, history's and its own keys.
 */
public final class ConfigurationReference {

  private static final Pattern ROW =
      Pattern.compile("^\\| `(avgateway\\.[a-z0-9.-]+)` \\| (.*?) (?<!\\\\)\\|.*$");
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private ConfigurationReference() {}

  /** Every {@code avgateway.*} key on the class path with its default as the doc shows it. */
  public static Map<String, String> fromMetadata() throws IOException {
    Map<String, String> keys = new TreeMap<>();
    ClassLoader loader = ConfigurationReference.class.getClassLoader();
    for (URL url :
        Collections.list(loader.getResources("META-INF/spring-configuration-metadata.json"))) {
      try (InputStream in = url.openStream()) {
        for (JsonNode property : JSON.readTree(in).path("properties")) {
          String name = property.path("name").asString();
          if (name.startsWith("avgateway.")) {
            keys.put(name, cell(property.get("defaultValue")));
          }
        }
      }
    }
    return keys;
  }

  /** The keys and default cells of the document's table rows. */
  public static Map<String, String> fromDocument(Path document) throws IOException {
    Map<String, String> keys = new TreeMap<>();
    for (String line : Files.readAllLines(document)) {
      Matcher row = ROW.matcher(line);
      if (row.matches()) {
        keys.put(row.group(1), row.group(2).replace("\\|", "|"));
      }
    }
    return keys;
  }

  /**
   * What differs between the document and the metadata for the groups on the class path, one line
   * each, the rows to paste included; empty when they agree.
   */
  public static List<String> differences(Map<String, String> metadata, Map<String, String> doc) {
    Set<String> groups = new TreeSet<>();
    metadata.keySet().forEach(key -> groups.add(group(key)));
    List<String> problems = new ArrayList<>();
    metadata.forEach((key, value) -> {
      if (!doc.containsKey(key)) {
        problems.add("missing from the document: | `" + key + "` | " + escape(value) + " | |");
      } else if (!doc.get(key).equals(value)) {
        problems.add(key + ": the document says " + doc.get(key) + ", the default is " + value);
      }
    });
    doc.keySet().stream()
        .filter(key -> groups.contains(group(key)) && !metadata.containsKey(key))
        .forEach(key -> problems.add("in the document but no such property: " + key));
    return problems;
  }

  /** {@code docs/configuration.md} above the working directory. */
  public static Path document() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("docs/configuration.md");
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        "no docs/configuration.md above " + Path.of("").toAbsolutePath());
  }

  private static String group(String key) {
    String[] parts = key.split("\\.", 3);
    return parts[0] + "." + parts[1];
  }

  private static String cell(JsonNode value) {
    if (value == null || value.isNull()) {
      return "(none)";
    }
    String text;
    if (value.isArray()) {
      List<String> items = new ArrayList<>();
      value.forEach(item -> items.add(item.asString()));
      text = String.join(",", items);
    } else {
      text = value.asString();
    }
    return text.isEmpty() ? "(none)" : "`" + text + "`";
  }

  private static String escape(String cell) {
    return cell.replace("|", "\\|");
  }
}
