package io.github.avgateway.core.port;

/** Whether a dependency can serve now; when it cannot, a sentence says why. */
public sealed interface Availability {

  /** The dependency serves. */
  record Up() implements Availability {}

  /**
   * The dependency does not serve.
   *
   * @param why what is wrong, in words an operator can act on
   */
  record Down(String why) implements Availability {}

  static Availability up() {
    return new Up();
  }

  static Availability down(String why) {
    return new Down(why);
  }
}
