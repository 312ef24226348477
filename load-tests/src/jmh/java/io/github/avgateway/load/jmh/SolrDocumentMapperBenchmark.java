package io.github.avgateway.load.jmh;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.solr.SolrDocumentMapper;
import java.util.concurrent.TimeUnit;
import org.apache.solr.common.SolrInputDocument;
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
 * Mapping one history record to its Solr document ({@link SolrDocumentMapper#toDocument}), once per
 * request before the batch is sent.
 *
 * <p>Pitfalls avoided: the {@link MessageInfo} is built in setup (only the mapping is timed); the
 * document is returned and consumed, so the field map cannot be eliminated; both a clean record and
 * an infected one (with a multi-valued signature field) are measured, since the infected path adds
 * a field.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SolrDocumentMapperBenchmark {

  @Param({"CLEAN", "INFECTED"})
  public String verdict;

  private MessageInfo info;

  @Setup
  public void setUp() {
    info = Samples.history("INFECTED".equals(verdict));
  }

  @Benchmark
  public SolrInputDocument toDocument() {
    return SolrDocumentMapper.toDocument(info);
  }
}
