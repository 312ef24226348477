package io.github.avgateway.core.trace;

/** One timed step of a request (a child span): ended once, by {@link #end} or {@link #fail}. */
public interface TraceStep {

  /** A step that records nothing. */
  TraceStep NONE =
      new TraceStep() {
        @Override
        public void end() {}

        @Override
        public void fail(String why) {}
      };

  /** The step is over and went well. */
  void end();

  /** The step is over and failed for {@code why} (the span is marked as an error). */
  void fail(String why);
}
