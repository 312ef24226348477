package io.github.avgateway.core.clamd;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Parsing clamd's answer to one INSTREAM ({@link ClamdReplyParser#parse}), once per scan.
 *
 * <p>Pitfalls avoided: the reply is a {@code @State} field read per invocation (not a constant the
 * JIT could fold, since {@code @Param} values are only known at run time); the parsed reply is
 * returned, so JMH consumes it and the parse cannot be eliminated as dead code. Lives in the
 * parser's package because the parser is package-private.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ReplyParserBenchmark {

  /** A clean answer, one detection, and an AllMatchScan answer with three entries. */
  @Param({"clean", "found", "allmatch"})
  public String kind;

  private String reply;

  @Setup
  public void setUp() {
    reply =
        switch (kind) {
          case "clean" -> "stream: OK";
          case "found" -> "stream: Eicar-Test-Signature.UNOFFICIAL FOUND";
          case "allmatch" ->
              "stream: Win.Test.EICAR_HDB-1 FOUND\0stream: Eicar-Test-Signature.UNOFFICIAL FOUND\n"
                  + "stream: Heuristics.Limits.Exceeded.MaxRecursion FOUND";
          default -> throw new IllegalArgumentException(kind);
        };
  }

  @Benchmark
  public ClamdReply parse() {
    return ClamdReplyParser.parse(reply);
  }
}
