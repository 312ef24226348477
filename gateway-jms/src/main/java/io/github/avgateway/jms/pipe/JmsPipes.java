package io.github.avgateway.jms.pipe;

import io.github.avgateway.core.config.HistoryStreamProperties;
import io.github.avgateway.core.pipe.Pipe;
import io.github.avgateway.jms.config.JmsProperties;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The clean-pipes of {@code avgateway.jms.pipes}, checked against each other and the gateway's own
 * queues before anything is created or consumed: no pipe queue may be the request, dead-letter or a
 * history queue (the gateway would feed its own traffic into a pipe, or files into its history), no
 * two pipes may share an inbox, and no outlet may be a pipe's inbox (a forwarded file would be
 * scanned and forwarded again, for ever). Pipes may share outlets (one quarantine for all).
 */
public final class JmsPipes {

  private JmsPipes() {}

  /**
   * The configured pipes, in order.
   *
   * @throws IllegalArgumentException naming the offending keys when a pipe's queues clash
   */
  public static List<Pipe> checked(JmsProperties properties, HistoryStreamProperties history) {
    Map<String, String> own = new LinkedHashMap<>();
    own.put(properties.requestQueue(), "avgateway.jms.request-queue");
    own.put(properties.deadLetterQueue(), "avgateway.jms.dead-letter-queue");
    own.put(history.queue(), "avgateway.history.queue");
    own.put(history.deadLetterQueue(), "avgateway.history.dead-letter-queue");
    List<Pipe> pipes = properties.pipes();
    Map<String, String> inboxes = new HashMap<>();
    for (int i = 0; i < pipes.size(); i++) {
      String key = "avgateway.jms.pipes[" + i + "].inbox";
      String other = inboxes.putIfAbsent(pipes.get(i).inbox(), key);
      if (other != null) {
        throw clash(key, other, pipes.get(i).inbox(), "two pipes cannot share an inbox");
      }
    }
    for (int i = 0; i < pipes.size(); i++) {
      Pipe pipe = pipes.get(i);
      Map<String, String> queues = new LinkedHashMap<>();
      queues.put("inbox", pipe.inbox());
      queues.put("clean", pipe.clean());
      queues.put("quarantine", pipe.quarantine());
      queues.put("rejected", pipe.rejected());
      for (Map.Entry<String, String> queue : queues.entrySet()) {
        String key = "avgateway.jms.pipes[" + i + "]." + queue.getKey();
        String name = queue.getValue();
        if (own.containsKey(name)) {
          throw clash(key, own.get(name), name, "a pipe needs queues of its own");
        }
        if (!queue.getKey().equals("inbox") && inboxes.containsKey(name)) {
          throw clash(
              key,
              inboxes.get(name),
              name,
              "a forwarded file would be scanned and forwarded again");
        }
      }
    }
    return pipes;
  }

  private static IllegalArgumentException clash(String key, String other, String name, String why) {
    return new IllegalArgumentException(
        "%s and %s are both the queue %s: %s".formatted(key, other, name, why));
  }
}
