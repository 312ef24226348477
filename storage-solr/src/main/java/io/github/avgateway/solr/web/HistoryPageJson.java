package io.github.avgateway.solr.web;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.port.HistoryPage;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * One page of documents as the API answers it.
 *
 * @param documents newest first
 * @param next the {@code cursor} parameter of the following page; null on the last page
 * @param last true when no document follows
 */
@Schema(name = "HistoryPage")
public record HistoryPageJson(List<MessageInfo> documents, String next, boolean last) {

  static HistoryPageJson of(HistoryPage page) {
    return new HistoryPageJson(
        page.documents(), page.last() ? null : page.next().token(), page.last());
  }
}
