package io.github.avgateway.core.fault;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;

/** File helpers of the fault runs. */
public final class TestFiles {

  private TestFiles() {}

  /** Deletes {@code dir} and everything below it, if it exists. */
  public static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var files = Files.walk(dir)) {
      for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }

  /**
   * The lines of the files under {@code root} (a file or a directory) that contain any of {@code
   * needles}: the canary check (scenario 21) that a payload or file name never reaches a log.
   */
  public static List<String> linesContaining(Path root, List<String> needles) {
    if (!Files.exists(root)) {
      return List.of();
    }
    try (var files = Files.walk(root)) {
      return files
          .filter(Files::isRegularFile)
          .flatMap(file -> matches(file, needles).stream())
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> matches(Path file, List<String> needles) {
    try {
      String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
      return text.lines()
          .filter(line -> needles.stream().anyMatch(line::contains))
          .map(line -> file + ": " + line)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
