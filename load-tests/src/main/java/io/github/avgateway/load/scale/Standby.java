package io.github.avgateway.load.scale;

import java.io.IOException;

/** How a server main of the scale-out run waits: until its parent closes its standard input. */
final class Standby {

  private Standby() {}

  /** Returns when standard input reaches its end (the parent closed it or ended). */
  static void untilStdinCloses() {
    try {
      while (System.in.read() >= 0) {
        // nothing is sent on stdin; only its end counts
      }
    } catch (IOException e) {
      // the parent is gone
    }
  }
}
