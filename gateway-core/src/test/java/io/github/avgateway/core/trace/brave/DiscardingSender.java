package io.github.avgateway.core.trace.brave;

import java.util.List;
import zipkin2.reporter.BytesMessageSender;
import zipkin2.reporter.Encoding;

/**
 * A Zipkin span sender that takes every message and keeps nothing (for a real reporter in tests).
 */
public final class DiscardingSender implements BytesMessageSender {

  @Override
  public Encoding encoding() {
    return Encoding.JSON;
  }

  @Override
  public int messageMaxBytes() {
    return 500_000;
  }

  @Override
  public int messageSizeInBytes(List<byte[]> encodedSpans) {
    return Encoding.JSON.listSizeInBytes(encodedSpans);
  }

  @Override
  public int messageSizeInBytes(int encodedSizeInBytes) {
    return Encoding.JSON.listSizeInBytes(encodedSizeInBytes);
  }

  @Override
  public void send(List<byte[]> encodedSpans) {}

  @Override
  public void close() {}
}
