package io.github.avgateway.jms.reply;

import io.github.avgateway.core.wire.OriginalHeaders;
import io.github.avgateway.core.wire.WireNames;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.util.Collections;
import java.util.Locale;
import java.util.Set;

/**
 * Copies a request's properties onto its dead-letter so that no property the caller sent can fail
 * the dead-letter. A property is copied under its own name when JMS allows it there: a Java
 * identifier that is not a selector keyword, a boolean, number or string value, a string of at most
 * {@link OriginalHeaders#MAX_VALUE_CHARS} characters, and not one of the names the gateway sets on
 * the dead-letter itself. Every other one (e.g. STOMP's {@code destination-type}, a Core {@code
 * byte[]} property, a 1 MB string) goes into the one string property {@code avOriginalHeaders}
 * (JSON, see {@link OriginalHeaders}). Properties the broker sets ({@code JMSX*}, {@code JMS_*},
 * {@code _AMQ*}) describe the delivery, not the request, and are not carried.
 */
public final class DeadLetterProperties {

  /** Properties the gateway sets on a dead-letter; a request's own go to avOriginalHeaders. */
  static final Set<String> GATEWAY_NAMES =
      Set.of(
          WireNames.REASON,
          WireNames.REASON_DETAIL,
          WireNames.VERDICT,
          WireNames.ORIGINAL_HEADERS,
          JmsWire.REQUEST_ID,
          JmsWire.ORIGINAL_TYPE,
          JmsWire.DELIVERY_COUNT);

  private static final Set<String> SELECTOR_KEYWORDS =
      Set.of("NULL", "TRUE", "FALSE", "NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "ESCAPE");

  private DeadLetterProperties() {}

  /** Copies {@code from}'s properties onto {@code to}, carrying the others in JSON. */
  public static void copy(Message from, Message to) throws JMSException {
    copy(from, to, GATEWAY_NAMES, Set.of());
  }

  /**
   * Copies {@code from}'s properties onto {@code to}, carrying the others in JSON, those named in
   * {@code reserved} included (the gateway sets them on {@code to}), and leaving out those named in
   * {@code dropped} (the gateway sets them anew, replacing the sender's).
   */
  public static void copy(Message from, Message to, Set<String> reserved, Set<String> dropped)
      throws JMSException {
    OriginalHeaders carried = new OriginalHeaders();
    for (Object element : Collections.list(from.getPropertyNames())) {
      String name = String.valueOf(element);
      if (brokerSet(name) || dropped.contains(name)) {
        continue;
      }
      Object value;
      try {
        value = from.getObjectProperty(name);
      } catch (JMSException | RuntimeException e) {
        carried.carryUnreadable(name, e.getMessage());
        continue;
      }
      if (!copied(to, name, value, reserved)) {
        carried.carry(name, value);
      }
    }
    if (!carried.isEmpty()) {
      to.setStringProperty(WireNames.ORIGINAL_HEADERS, carried.toJson());
    }
  }

  /** Whether JMS accepts {@code name} as a property name (what Artemis checks, and a bit more). */
  static boolean validName(String name) {
    if (name.isEmpty()
        || !Character.isJavaIdentifierStart(name.charAt(0))
        || SELECTOR_KEYWORDS.contains(name.toUpperCase(Locale.ROOT))) {
      return false;
    }
    return name.chars().skip(1).allMatch(Character::isJavaIdentifierPart);
  }

  private static boolean brokerSet(String name) {
    return name.startsWith("JMSX") || name.startsWith("JMS_") || name.startsWith("_AMQ");
  }

  private static boolean copied(Message to, String name, Object value, Set<String> reserved) {
    boolean allowed =
        !reserved.contains(name)
            && validName(name)
            && validType(value)
            && OriginalHeaders.fitsAsIs(value);
    if (!allowed) {
      return false;
    }
    try {
      to.setObjectProperty(name, value);
      return true;
    } catch (JMSException | RuntimeException e) {
      return false;
    }
  }

  private static boolean validType(Object value) {
    return value instanceof String
        || value instanceof Boolean
        || value instanceof Byte
        || value instanceof Short
        || value instanceof Integer
        || value instanceof Long
        || value instanceof Float
        || value instanceof Double;
  }
}
