package io.github.avgateway.jms.fault;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;

/**
 * Copies every log line of this JVM (the in-process gateway's included) into a file, so that the
 * canary scenario can search it; can turn the gateway's own loggers up to DEBUG meanwhile.
 */
final class LogCapture implements AutoCloseable {

  private static final String GATEWAY = "io.github.avgateway";

  private final FileAppender<ILoggingEvent> appender = new FileAppender<>();
  private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();

  LogCapture(Path file) {
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%d{HH:mm:ss.SSS} %-5level [%thread] %logger - %msg%n%ex");
    encoder.start();
    appender.setContext(context);
    appender.setFile(file.toString());
    appender.setEncoder(encoder);
    appender.start();
    context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(appender);
  }

  /** Logs everything of the gateway's own loggers, DEBUG included, until the result is closed. */
  AutoCloseable debug() {
    Logger gateway = context.getLogger(GATEWAY);
    Level level = gateway.getLevel();
    gateway.setLevel(Level.DEBUG);
    return () -> gateway.setLevel(level);
  }

  @Override
  public void close() {
    context.getLogger(Logger.ROOT_LOGGER_NAME).detachAppender(appender);
    appender.stop();
  }
}
