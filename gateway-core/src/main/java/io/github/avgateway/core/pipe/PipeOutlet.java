package io.github.avgateway.core.pipe;

import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.Verdict;

/** The destination of a pipe that a scanned message is forwarded to. */
public enum PipeOutlet {
  /** CLEAN: the whole body was scanned and nothing was found. */
  CLEAN(Disposition.FORWARDED_CLEAN),
  /** INFECTED. */
  QUARANTINE(Disposition.QUARANTINED),
  /** UNSCANNABLE or ERROR: not known to be clean, so never forwarded to clean. */
  REJECTED(Disposition.REJECTED);

  private final Disposition disposition;

  PipeOutlet(Disposition disposition) {
    this.disposition = disposition;
  }

  /** The history disposition of a message forwarded here. */
  public Disposition disposition() {
    return disposition;
  }

  /** Where a message with {@code verdict} goes: fail closed, only CLEAN goes to clean. */
  public static PipeOutlet forVerdict(Verdict verdict) {
    return switch (verdict) {
      case CLEAN -> CLEAN;
      case INFECTED -> QUARANTINE;
      case UNSCANNABLE, ERROR -> REJECTED;
    };
  }
}
