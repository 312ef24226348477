package io.github.avgateway.core.testing;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Copies everything written to {@code System.out} and {@code System.err} while it is installed,
 * still passing it through. Logback's and Spring Boot's console output resolve {@code System.out}
 * on every write, so an application started after {@link #install()} is captured whole.
 */
public final class StdoutTee implements AutoCloseable {

  private final PrintStream originalOut = System.out;
  private final PrintStream originalErr = System.err;
  private final ByteArrayOutputStream copy = new ByteArrayOutputStream();

  private StdoutTee() {}

  /** Starts copying. */
  public static StdoutTee install() {
    StdoutTee tee = new StdoutTee();
    System.setOut(tee.tee(tee.originalOut));
    System.setErr(tee.tee(tee.originalErr));
    return tee;
  }

  private PrintStream tee(PrintStream original) {
    OutputStream both =
        new OutputStream() {
          @Override
          public void write(int b) {
            synchronized (copy) {
              copy.write(b);
            }
            original.write(b);
          }

          @Override
          public void write(byte[] b, int off, int len) {
            synchronized (copy) {
              copy.write(b, off, len);
            }
            original.write(b, off, len);
          }
        };
    return new PrintStream(both, true, StandardCharsets.UTF_8);
  }

  /** Everything copied so far. */
  public String text() {
    synchronized (copy) {
      return copy.toString(StandardCharsets.UTF_8);
    }
  }

  /** Stops copying. */
  @Override
  public void close() {
    System.setOut(originalOut);
    System.setErr(originalErr);
  }
}
