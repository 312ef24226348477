package io.github.avgateway.solr.web;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.HistoryCursor;
import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.port.TimeRange;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The newest documents of any verdict, built from the port's per-verdict pages: the newest {@code
 * limit} documents overall are among the newest {@code limit} of each verdict, so one first page
 * per verdict is enough. Same order as the store's pages: received time, then id, both descending.
 */
final class RecentScans {

  static final Comparator<MessageInfo> NEWEST_FIRST =
      Comparator.comparing(MessageInfo::receivedAt).thenComparing(MessageInfo::id).reversed();

  private RecentScans() {}

  static List<MessageInfo> newest(HistoryQueries queries, TimeRange range, int limit) {
    return Arrays.stream(Verdict.values())
        .flatMap(
            v -> queries.byVerdict(v, range, HistoryCursor.first(), limit).documents().stream())
        .sorted(NEWEST_FIRST)
        .limit(limit)
        .toList();
  }
}
