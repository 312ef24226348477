package io.github.avgateway.core.port;

import io.github.avgateway.core.model.MessageInfo;
import java.util.concurrent.CompletableFuture;

/** Records one history document per request. Implemented by the Solr history store. */
public interface HistoryRecorder {

  /**
   * Queues {@code info} for the history store. The future completes when the store has
   * <em>accepted</em> the document (durably received; visible to queries soon after), and fails
   * when it has not, so a front-end acknowledges the request only after it completes. Recording the
   * same {@link MessageInfo#id()} twice leaves one document. When the recorder's bounded queue is
   * full the call blocks until there is room: that is the back-pressure front-ends feel.
   */
  CompletableFuture<Void> record(MessageInfo info);
}
