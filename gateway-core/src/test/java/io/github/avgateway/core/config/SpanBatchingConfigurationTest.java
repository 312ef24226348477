package io.github.avgateway.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import brave.Tracing;
import brave.handler.SpanHandler;
import io.github.avgateway.core.trace.brave.BatchingSpanHandler;
import io.github.avgateway.core.trace.brave.DiscardingSender;
import io.github.avgateway.core.trace.brave.SpanBatching;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import zipkin2.reporter.brave.AsyncZipkinSpanHandler;

/**
 * {@code TracingAutoConfiguration}'s span batching beside a Zipkin handler bean, as Spring Boot
 * declares one: the batching bean depends on the handler, so Spring closes it (handing over what
 * waits) before the handler it feeds; the interval comes from {@code
 * avgateway.tracing.span-batch-interval}.
 */
class SpanBatchingConfigurationTest {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(TracingAutoConfiguration.class))
          .withUserConfiguration(ZipkinHandler.class);

  @Test
  void theBatchingIsClosedBeforeTheZipkinHandlerItFeeds() {
    runner.run(context -> {
      assertThat(context.getBeanFactory().getDependentBeans("zipkinHandler"))
          .contains(TracingAutoConfiguration.SpanBatchingConfiguration.BEAN);
      SpanBatching batching = context.getBean(SpanBatching.class);
      Tracing.Builder builder =
          Tracing.newBuilder().addSpanHandler(context.getBean(AsyncZipkinSpanHandler.class));
      batching.customize(builder);
      List<SpanHandler> handlers = List.copyOf(builder.spanHandlers());
      assertThat(handlers).singleElement().isInstanceOf(BatchingSpanHandler.class);
    });
  }

  @Test
  void aZeroIntervalBatchesNothing() {
    runner
        .withPropertyValues("avgateway.tracing.span-batch-interval=0")
        .run(context -> {
          SpanBatching batching = context.getBean(SpanBatching.class);
          AsyncZipkinSpanHandler zipkin = context.getBean(AsyncZipkinSpanHandler.class);
          Tracing.Builder builder = Tracing.newBuilder().addSpanHandler(zipkin);
          batching.customize(builder);
          assertThat(builder.spanHandlers()).containsExactly(zipkin);
          assertThat(batching.batchers()).isEmpty();
        });
  }

  /** A Zipkin handler bean on a sender that discards what it is sent. */
  @Configuration(proxyBeanMethods = false)
  static class ZipkinHandler {

    @Bean
    AsyncZipkinSpanHandler zipkinHandler() {
      return AsyncZipkinSpanHandler.create(new DiscardingSender());
    }
  }
}
