package io.github.avgateway.core.port;

import io.github.avgateway.core.model.MessageInfo;
import java.util.List;
import java.util.Objects;

/**
 * One page of a history query.
 *
 * @param documents the page's documents, in the query's order
 * @param next the cursor of the following page
 * @param last true when no document follows this page
 */
public record HistoryPage(List<MessageInfo> documents, HistoryCursor next, boolean last) {

  public HistoryPage {
    documents = List.copyOf(documents);
    Objects.requireNonNull(next, "next");
  }
}
