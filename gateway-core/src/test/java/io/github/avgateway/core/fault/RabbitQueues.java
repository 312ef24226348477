package io.github.avgateway.core.fault;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The quorum queues of a {@link RabbitCluster} as the cluster reports them ({@code rabbitmqctl
 * list_queues name leader members online} on a running node): which node leads each, which nodes
 * are its members and which of those are online; and a leadership moved on purpose, so that a
 * scenario can kill a node that leads a queue, or one that leads none of the queues it names.
 */
public final class RabbitQueues {

  private final RabbitCluster cluster;

  RabbitQueues(RabbitCluster cluster) {
    this.cluster = cluster;
  }

  /** One quorum queue: its leader's node number and its members' and online members' numbers. */
  public record Quorum(String name, int leader, List<Integer> members, List<Integer> online) {}

  /** Every quorum queue of the default virtual host, by name. */
  public Map<String, Quorum> all() {
    String out =
        cluster.ctl(
            cluster.anyRunning(),
            "list_queues",
            "-q",
            "--no-table-headers",
            "name",
            "type",
            "leader",
            "members",
            "online");
    return out.lines()
        .map(line -> line.split("\t"))
        .filter(cols -> cols.length == 5 && cols[1].equals("quorum"))
        .map(cols -> new Quorum(cols[0], node(cols[2]), nodes(cols[3]), nodes(cols[4])))
        .collect(Collectors.toMap(Quorum::name, Function.identity()));
  }

  /** The quorum queue {@code name}; fails when there is none. */
  public Quorum get(String name) {
    Quorum queue = all().get(name);
    if (queue == null) {
      throw new IllegalStateException("no quorum queue " + name + " on " + cluster);
    }
    return queue;
  }

  /** The node number that leads {@code queue} now. */
  public int leader(String queue) {
    return get(queue).leader();
  }

  /**
   * Moves the leadership of {@code queue} to node {@code to} (Ra's own leadership transfer, the one
   * RabbitMQ's maintenance mode uses) and waits (bounded) until the cluster reports it there.
   */
  public void transferLeadership(String queue, int to) {
    if (leader(queue) == to) {
      return;
    }
    String erlang =
        String.format(
            "{ok, Q} = rabbit_amqqueue:lookup(rabbit_misc:r(<<\"/\">>, queue, <<\"%s\">>)),"
                + " {Name, Leader} = amqqueue:get_pid(Q),"
                + " ra:transfer_leadership({Name, Leader}, {Name, '%s'}).",
            queue, cluster.node(to));
    cluster.ctl(cluster.anyRunning(), "eval", erlang);
    await(queue + " led by node " + to)
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(250))
        .until(() -> leader(queue) == to);
  }

  /** Waits (bounded) until every quorum queue named has all its members online again. */
  public void awaitAllOnline(Duration limit, String... names) {
    await("every member of " + Arrays.toString(names) + " online")
        .atMost(limit)
        .pollInterval(Duration.ofMillis(500))
        .ignoreExceptions()
        .until(() -> {
          Map<String, Quorum> queues = all();
          return Arrays.stream(names)
              .map(queues::get)
              .allMatch(q -> q != null && q.online().size() == q.members().size());
        });
  }

  private int node(String name) {
    for (int n = 1; n <= RabbitCluster.SIZE; n++) {
      if (cluster.node(n).equals(name.strip())) {
        return n;
      }
    }
    return 0;
  }

  private List<Integer> nodes(String list) {
    String inner = list.strip().replaceAll("^\\[|]$", "");
    return inner.isBlank()
        ? List.of()
        : Arrays.stream(inner.split(",")).map(this::node).sorted().toList();
  }
}
