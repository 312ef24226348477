package io.github.avgateway.core.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Finds a module's runnable jar, as {@code scripts/run.sh} does, for tests that start it. */
public final class RunnableJar {

  private RunnableJar() {}

  /**
   * The one {@code *-exec.jar} in the module's {@code target} directory (failsafe runs in the
   * module's directory, after {@code package} built the jar).
   */
  public static Path inTarget() {
    Path target = Path.of("target").toAbsolutePath();
    try (Stream<Path> files = Files.list(target)) {
      List<Path> jars =
          files.filter(f -> f.getFileName().toString().endsWith("-exec.jar")).toList();
      if (jars.size() != 1) {
        throw new IllegalStateException(
            "expected one *-exec.jar in " + target + " (run mvn verify), found " + jars);
      }
      return jars.get(0);
    } catch (IOException e) {
      throw new IllegalStateException("cannot list " + target, e);
    }
  }
}
