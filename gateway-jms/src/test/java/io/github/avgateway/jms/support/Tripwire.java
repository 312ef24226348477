package io.github.avgateway.jms.support;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.io.Serializable;
import java.util.concurrent.atomic.AtomicInteger;

/** A serializable object that counts every time anything deserializes it. */
public final class Tripwire implements Serializable {

  @Serial private static final long serialVersionUID = 1L;

  /** How often an instance was deserialized in this JVM. */
  public static final AtomicInteger DESERIALIZED = new AtomicInteger();

  @Serial
  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    DESERIALIZED.incrementAndGet();
    in.defaultReadObject();
  }
}
