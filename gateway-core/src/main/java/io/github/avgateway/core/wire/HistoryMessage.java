package io.github.avgateway.core.wire;

import io.github.avgateway.core.model.MessageInfo;
import java.util.List;
import java.util.Objects;

/**
 * One message on the history stream (docs/architecture.md, "The history path"): the history
 * documents of one consumer batch, as the scan path hands them to the broker for the history
 * indexer. Never carries payload bytes.
 *
 * @param schema the format version; {@link HistoryMessages#SCHEMA} for what this gateway writes
 * @param documents one per request of the batch, in the order they were handled
 */
public record HistoryMessage(int schema, List<MessageInfo> documents) {

  public HistoryMessage {
    documents = List.copyOf(Objects.requireNonNull(documents, "documents"));
  }

  /** The history message of {@code documents}, in the current schema. */
  public static HistoryMessage of(List<MessageInfo> documents) {
    return new HistoryMessage(HistoryMessages.SCHEMA, documents);
  }
}
