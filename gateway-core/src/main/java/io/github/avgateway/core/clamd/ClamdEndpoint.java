package io.github.avgateway.core.clamd;

import java.util.Objects;

/**
 * One clamd daemon reachable over TCP.
 *
 * @param host a host name or IP address; never blank
 * @param port the TCP port, 1 to 65535
 */
public record ClamdEndpoint(String host, int port) {

  public ClamdEndpoint {
    Objects.requireNonNull(host, "host");
    if (host.isBlank()) {
      throw new IllegalArgumentException("clamd host must not be blank");
    }
    if (port < 1 || port > 65_535) {
      throw new IllegalArgumentException("clamd port must be 1-65535, got " + port);
    }
  }

  /**
   * Parses {@code host:port}, or {@code [ipv6]:port} for an IPv6 address.
   *
   * @throws IllegalArgumentException with a message naming the expected form
   */
  public static ClamdEndpoint parse(String text) {
    String value = text == null ? "" : text.strip();
    int colon = value.lastIndexOf(':');
    if (colon <= 0 || colon == value.length() - 1) {
      throw new IllegalArgumentException(
          "clamd endpoint must be host:port (e.g. 127.0.0.1:3310), got '" + text + "'");
    }
    String host = value.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":")) {
      throw new IllegalArgumentException("write an IPv6 clamd endpoint as [address]:port");
    }
    try {
      return new ClamdEndpoint(host, Integer.parseInt(value.substring(colon + 1)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("clamd port must be a number, got '" + text + "'", e);
    }
  }

  @Override
  public String toString() {
    return host.contains(":") ? "[" + host + "]:" + port : host + ":" + port;
  }
}
