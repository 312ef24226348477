package io.github.avgateway.core.pipe;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One clean-pipe: producers put files on {@code inbox}; each is forwarded, unchanged apart from the
 * gateway's headers, to {@code clean}, {@code quarantine} or {@code rejected} by its verdict. The
 * names are queue names (AMQP: published through the default exchange; JMS: queues).
 *
 * @param inbox the queue the gateway reads the pipe's files from
 * @param clean where CLEAN files go
 * @param quarantine where INFECTED files go
 * @param rejected where UNSCANNABLE and ERROR files go
 */
public record Pipe(String inbox, String clean, String quarantine, String rejected) {

  public Pipe {
    inbox = required("inbox", inbox);
    clean = required("clean", clean);
    quarantine = required("quarantine", quarantine);
    rejected = required("rejected", rejected);
    Set<String> names = new HashSet<>(List.of(inbox, clean, quarantine, rejected));
    if (names.size() != 4) {
      throw new IllegalArgumentException(
          "a pipe's inbox, clean, quarantine and rejected must be four different queues, got "
              + List.of(inbox, clean, quarantine, rejected));
    }
  }

  /** The queue a message forwarded to {@code outlet} goes to. */
  public String destination(PipeOutlet outlet) {
    return switch (outlet) {
      case CLEAN -> clean;
      case QUARANTINE -> quarantine;
      case REJECTED -> rejected;
    };
  }

  private static String required(String what, String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a pipe needs a " + what + " queue");
    }
    return name.strip();
  }
}
