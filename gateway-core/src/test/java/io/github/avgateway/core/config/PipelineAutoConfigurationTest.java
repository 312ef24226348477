package io.github.avgateway.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.EngineVersion;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.model.ScanRequest;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.pipeline.CacheMode;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.port.VirusScanner;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class PipelineAutoConfigurationTest {

  private static final class CountingScanner implements VirusScanner {
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public ScanReport scan(InputStream content, long declaredSize) {
      calls.incrementAndGet();
      return ScanReport.clean(version(), 1);
    }

    @Override
    public EngineVersion version() {
      return new EngineVersion("ClamAV 1.4.6", "27451");
    }
  }

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(PipelineAutoConfiguration.class))
          .withBean(CountingScanner.class, CountingScanner::new);

  private static ScanResult scan(ScanPipeline pipeline, String id, byte[] body) {
    return pipeline.scan(
        new ScanRequest(
            id, null, "jms", null, null, null, Instant.now(), false, ScanContent.of(body)));
  }

  @Test
  void cacheIsAutoByDefaultAndUsedWhileTheScannerReportsASignatureVersion() {
    runner
        .withPropertyValues("avgateway.pipeline.gateway-name=gw-test")
        .run(context -> {
          assertThat(context.getBean(PipelineProperties.class).cache().enabled())
              .isEqualTo(CacheMode.AUTO);
          ScanPipeline pipeline = context.getBean(ScanPipeline.class);
          ScanResult first = scan(pipeline, "a", new byte[] {1});
          assertThat(scan(pipeline, "b", new byte[] {1}).cached()).isTrue();
          assertThat(context.getBean(CountingScanner.class).calls).hasValue(1);
          assertThat(first.gateway()).isEqualTo("gw-test");
        });
  }

  @Test
  void enabledTakesAutoTrueAndFalse() {
    for (var value :
        List.of(
            Map.entry("auto", CacheMode.AUTO),
            Map.entry("true", CacheMode.ON),
            Map.entry("false", CacheMode.OFF))) {
      runner
          .withPropertyValues("avgateway.pipeline.cache.enabled=" + value.getKey())
          .run(context ->
              assertThat(context.getBean(PipelineProperties.class).cache().enabled())
                  .as(value.getKey())
                  .isEqualTo(value.getValue()));
    }
  }

  @Test
  void falseScansRepeatedContentEveryTime() {
    runner
        .withPropertyValues("avgateway.pipeline.cache.enabled=false")
        .run(context -> {
          ScanPipeline pipeline = context.getBean(ScanPipeline.class);
          scan(pipeline, "a", new byte[] {1});
          assertThat(scan(pipeline, "b", new byte[] {1}).cached()).isFalse();
          assertThat(context.getBean(CountingScanner.class).calls).hasValue(2);
        });
  }

  @Test
  void anUnknownValueIsRefusedWithTheKeyInTheMessage() {
    runner
        .withPropertyValues("avgateway.pipeline.cache.enabled=sometimes")
        .run(context ->
            assertThat(context)
                .hasFailed()
                .getFailure()
                .hasStackTraceContaining("avgateway.pipeline.cache.enabled"));
  }

  @Test
  void payloadLimitDefaultsTo100MebibytesWithoutClamdProperties() {
    runner.run(context -> {
      ScanPipeline pipeline = context.getBean(ScanPipeline.class);
      ScanRequest huge =
          new ScanRequest(
              "h",
              null,
              "jms",
              null,
              null,
              null,
              Instant.now(),
              false,
              new ScanContent() {
                @Override
                public long size() {
                  return 100L * 1024 * 1024 + 1;
                }

                @Override
                public InputStream open() {
                  throw new AssertionError("an oversized payload is never read");
                }
              });
      assertThat(pipeline.scan(huge).reason()).isEqualTo(Reason.TOO_LARGE);
    });
  }

  @Test
  void invalidCacheSizeIsRefusedWithTheKeyInTheMessage() {
    runner
        .withPropertyValues("avgateway.pipeline.cache.max-entries=0")
        .run(context ->
            assertThat(context)
                .hasFailed()
                .getFailure()
                .rootCause()
                .hasMessageContaining("avgateway.pipeline.cache.max-entries"));
  }
}
