package io.github.avgateway.amqp.fault;

import io.github.avgateway.core.fault.RabbitCluster;
import io.github.avgateway.core.fault.RabbitQueues.Quorum;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Who is connected to which node of a cluster rig, and which queues each node leads, as the cluster
 * and the machine report them right now: what a cluster scenario picks the node to fault by, and
 * what its report says about that node.
 *
 * @param cluster the rig's cluster
 * @param processes the processes whose connections count (gateways, the test JVM's callers) by name
 */
record ClusterView(RabbitCluster cluster, Map<String, Long> processes) {

  /** The nodes each process holds a connection to, by process name. */
  Map<String, Set<Integer>> connections() {
    Map<String, Set<Integer>> all = new LinkedHashMap<>();
    processes.forEach((name, pid) -> all.put(name, cluster.nodesConnectedFrom(pid)));
    return all;
  }

  /** The processes connected to node {@code n}. */
  List<String> connectedTo(int n) {
    List<String> names = new ArrayList<>();
    connections()
        .forEach((name, nodes) -> {
          if (nodes.contains(n)) {
            names.add(name);
          }
        });
    return names;
  }

  /** The first node {@code process} is connected to; fails when it has no connection. */
  int nodeOf(String process) {
    Set<Integer> nodes = connections().get(process);
    if (nodes == null || nodes.isEmpty()) {
      throw new IllegalStateException(process + " holds no connection to " + cluster);
    }
    return nodes.iterator().next();
  }

  /** A node none of the processes is connected to, or 0 when each node has someone. */
  int quietNode() {
    Set<Integer> busy = new TreeSet<>();
    connections().values().forEach(busy::addAll);
    for (int n = 1; n <= RabbitCluster.SIZE; n++) {
      if (!busy.contains(n)) {
        return n;
      }
    }
    return 0;
  }

  /** The quorum queues node {@code n} leads now. */
  List<String> ledBy(int n) {
    return cluster.queues().all().values().stream()
        .filter(q -> q.leader() == n)
        .map(Quorum::name)
        .sorted()
        .toList();
  }

  /** E.g. {@code node 3 (leads [av.scan.requests]; connected: [gw-a])}. */
  String describe(int n) {
    return "node " + n + " (leads " + ledBy(n) + "; connected: " + connectedTo(n) + ")";
  }
}
