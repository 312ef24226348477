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

  /**
   * Like {@link #record}, for a document of which the caller knows that no copy can be stored yet:
   * the first delivery of a request, in the first delivery of its history message, tried for the
   * first time. The store may then skip looking for a copy to replace, which is most of its write
   * cost in a large index. When unsure, call {@link #record}: a second copy written through this
   * method would stay beside the first. This default records as {@link #record} does.
   */
  default CompletableFuture<Void> recordNew(MessageInfo info) {
    return record(info);
  }
}
