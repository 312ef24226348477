package io.github.avgateway.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.contract.ContractFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the callers in the repository's {@code examples/} as a user runs them: Python from the
 * virtual environment {@code scripts/examples.sh install} made, Node.js from the PATH with the
 * packages it installed. A missing interpreter or package fails the test that needs it (with the
 * command that installs it); it never skips it.
 */
public final class ExampleCallers {

  /** What an example prints: {@code FILE: VERDICT CORRELATION-ID JSON}. */
  private static final Pattern PRINTED =
      Pattern.compile(
          "^(?<file>.+?): (?<verdict>[A-Z_]+) (?<correlation>\\S+)(?: (?<json>\\{.*}))?$");

  private static final long TIMEOUT_SECONDS = 60;

  private ExampleCallers() {}

  /**
   * One run of an example.
   *
   * @param exitCode its exit status (0 CLEAN, 1 INFECTED, 2 anything else)
   * @param verdict the verdict it printed, or null when its output was not one line of the form
   * @param correlationId the correlation id it sent and matched the reply by, or null
   * @param json the reply's body as it printed it, or null
   * @param output everything it printed, for failure messages
   */
  public record Run(
      int exitCode, String verdict, String correlationId, String json, String output) {}

  /** The repository's {@code examples/} directory, found upwards from the working directory. */
  public static Path examples() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isDirectory(dir.resolve("examples")) && Files.exists(dir.resolve("mvnw"))) {
        return dir.resolve("examples");
      }
    }
    throw new IllegalStateException("no examples/ above " + Path.of("").toAbsolutePath());
  }

  /** An example caller: script plus the arguments every run of it takes. */
  @FunctionalInterface
  public interface Caller {
    /** Runs the caller on {@code file} with {@code correlationId} and the caller's arguments. */
    Run scan(Path file, String correlationId);
  }

  /**
   * Has {@code caller} scan a clean file and EICAR (written under {@code dir}) and asserts the
   * printed verdicts, exit codes, signature and that each reply kept the correlation id sent.
   */
  public static void assertCleanAndInfected(String name, Caller caller, Path dir)
      throws IOException {
    Path clean = Files.write(dir.resolve(name + "-clean.txt"), ContractFiles.clean(11));
    Path eicar = Files.write(dir.resolve(name + "-eicar.com"), ContractFiles.eicar());
    String cleanId = name + "-clean-" + UUID.randomUUID();
    String eicarId = name + "-eicar-" + UUID.randomUUID();

    Run cleanRun = caller.scan(clean, cleanId);
    Run eicarRun = caller.scan(eicar, eicarId);

    assertThat(cleanRun.verdict())
        .as("%s on a clean file: %s", name, cleanRun.output())
        .isEqualTo("CLEAN");
    assertThat(cleanRun.exitCode()).as(name).isZero();
    assertThat(cleanRun.correlationId()).as(name).isEqualTo(cleanId);
    assertThat(eicarRun.verdict())
        .as("%s on EICAR: %s", name, eicarRun.output())
        .isEqualTo("INFECTED");
    assertThat(eicarRun.exitCode()).as(name).isEqualTo(1);
    assertThat(eicarRun.correlationId()).as(name).isEqualTo(eicarId);
    assertThat(eicarRun.json()).as(name).contains(ContractFiles.EICAR_SIGNATURE);
  }

  /** Runs {@code examples/python/SCRIPT ARGS} with the examples' virtual environment. */
  public static Run python(String script, List<String> args) {
    Path python = examples().resolve("python/.venv/bin/python");
    if (!Files.isExecutable(python)) {
      throw new AssertionError(python + " is missing: run scripts/examples.sh install");
    }
    return run(python.toString(), examples().resolve("python").resolve(script), args);
  }

  /** Runs {@code node examples/node/SCRIPT ARGS}. */
  public static Run node(String script, List<String> args) {
    if (!Files.isDirectory(examples().resolve("node/node_modules"))) {
      throw new AssertionError(
          examples().resolve("node/node_modules") + " is missing: run scripts/examples.sh install");
    }
    return run("node", examples().resolve("node").resolve(script), args);
  }

  private static Run run(String interpreter, Path script, List<String> args) {
    List<String> command = new ArrayList<>(List.of(interpreter, script.toString()));
    command.addAll(args);
    Process process;
    try {
      process = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new AssertionError(
          "cannot start " + interpreter + " (run scripts/examples.sh install): " + e, e);
    }
    try {
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(String.join(" ", command) + " ran over " + TIMEOUT_SECONDS + " s");
      }
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      String last = output.strip().lines().reduce((a, b) -> b).orElse("");
      Matcher printed = PRINTED.matcher(last);
      if (!printed.matches()) {
        return new Run(process.exitValue(), null, null, null, output);
      }
      return new Run(
          process.exitValue(),
          printed.group("verdict"),
          printed.group("correlation"),
          printed.group("json"),
          output);
    } catch (IOException e) {
      throw new AssertionError("cannot read the output of " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new AssertionError("interrupted while " + command + " ran", e);
    }
  }
}
