package io.github.avgateway.jms.intake;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.trace.RequestTrace;
import io.github.avgateway.core.trace.TraceStep;
import java.util.ArrayList;
import java.util.List;

/**
 * The traces of one consumer's open transaction: each request's span and the steps (reply, forward,
 * dead-letter, history hand-off) that last until the transaction commits or rolls back, when they
 * all end at once. Holds only the recorded (sampled) ones: nothing while tracing is off, and
 * nothing for a request that is not sampled. Used by the consumer's thread only.
 */
final class BatchTraces {

  static final String HISTORY_HAND_OFF = "history hand-off";

  private final List<TraceStep> steps = new ArrayList<>();
  private final List<RequestTrace> requests = new ArrayList<>();
  private final List<MessageInfo> documents = new ArrayList<>();

  /** A request of this transaction; its document follows with {@link #done}. */
  void started(RequestTrace trace) {
    if (trace.recorded()) {
      requests.add(trace);
      documents.add(null);
    }
  }

  /** The request was answered or dead-lettered, as {@code document} records. */
  void done(RequestTrace trace, MessageInfo document) {
    int index = requests.lastIndexOf(trace);
    if (index >= 0) {
      documents.set(index, document);
    }
  }

  /** A step that ends with the transaction. */
  void step(TraceStep step) {
    if (step != TraceStep.NONE) {
      steps.add(step);
    }
  }

  /** The history message of the transaction is being sent: one hand-off step per request. */
  void handingOff() {
    requests.forEach(trace -> steps.add(trace.step(HISTORY_HAND_OFF)));
  }

  /** The transaction committed: every step ends, every request with its document. */
  void committed() {
    steps.forEach(TraceStep::end);
    for (int i = 0; i < requests.size(); i++) {
      MessageInfo document = documents.get(i);
      if (document == null) {
        requests.get(i).fail("committed without an answer");
      } else {
        requests.get(i).finish(document);
      }
    }
    clear();
  }

  /** The transaction rolled back (the broker delivers its requests again) for {@code why}. */
  void rolledBack(String why) {
    steps.forEach(step -> step.fail(why));
    requests.forEach(trace -> trace.fail(why));
    clear();
  }

  private void clear() {
    steps.clear();
    requests.clear();
    documents.clear();
  }
}
