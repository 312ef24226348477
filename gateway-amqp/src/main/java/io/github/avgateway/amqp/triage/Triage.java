package io.github.avgateway.amqp.triage;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanRequest;
import io.github.avgateway.core.pipe.Pipe;
import io.github.avgateway.core.transport.ReplyRoute;
import java.util.Objects;

/** What the gateway does with one delivered request, decided before anything is scanned. */
public sealed interface Triage {

  /** The request in transport-neutral terms (with a generated id when it had none). */
  ScanRequest request();

  /**
   * Scan the content, then reply along {@code route} (or dead-letter, if the route says so).
   *
   * @param request the request
   * @param route where the result goes
   */
  record Scan(ScanRequest request, ReplyRoute<String> route) implements Triage {
    public Scan {
      Objects.requireNonNull(request, "request");
      Objects.requireNonNull(route, "route");
    }
  }

  /**
   * A clean-pipe message: scan the content, then forward the message to {@code pipe}'s outlet for
   * the verdict, and reply to {@code replyQueue} too when the producer asked for a reply (and the
   * reply destination policy allows it).
   *
   * @param request the request
   * @param pipe the pipe whose inbox it came from
   * @param replyQueue where the reply goes, or null for none
   */
  record Forward(ScanRequest request, Pipe pipe, String replyQueue) implements Triage {
    public Forward {
      Objects.requireNonNull(request, "request");
      Objects.requireNonNull(pipe, "pipe");
    }
  }

  /**
   * Do not scan: dead-letter at once with a result of {@code reason}.
   *
   * @param request the request
   * @param deadLetterReason why it is dead-lettered
   * @param reason the ERROR reason of the recorded result
   * @param detail a sentence for operators
   */
  record Refuse(
      ScanRequest request, DeadLetterReason deadLetterReason, Reason reason, String detail)
      implements Triage {
    public Refuse {
      Objects.requireNonNull(request, "request");
      Objects.requireNonNull(deadLetterReason, "deadLetterReason");
      Objects.requireNonNull(reason, "reason");
    }
  }
}
