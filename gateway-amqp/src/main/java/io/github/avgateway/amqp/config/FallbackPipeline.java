package io.github.avgateway.amqp.config;

import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.pipeline.VerdictCache;
import io.github.avgateway.core.port.VirusScanner;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;

/**
 * The scan pipeline used when the application defines no {@link ScanPipeline} bean: the
 * application's {@link VirusScanner}, no verdict cache, and the payload limit of {@code
 * avgateway.clamd.max-size} (default 100 MiB, below clamd's StreamMaxLength).
 */
final class FallbackPipeline {

  private static final DataSize DEFAULT_MAX_SIZE = DataSize.ofMegabytes(100);

  private FallbackPipeline() {}

  static ScanPipeline create(VirusScanner scanner, Environment environment) {
    DataSize max =
        environment.getProperty("avgateway.clamd.max-size", DataSize.class, DEFAULT_MAX_SIZE);
    return new ScanPipeline(
        scanner, VerdictCache.disabled(), max.toBytes(), Clock.systemUTC(), gatewayName());
  }

  private static String gatewayName() {
    try {
      return "amqp@" + InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "amqp@localhost";
    }
  }
}
