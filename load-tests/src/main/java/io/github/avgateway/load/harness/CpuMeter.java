package io.github.avgateway.load.harness;

import io.github.avgateway.load.harness.ThreadGroups.Group;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongUnaryOperator;
import java.util.stream.Stream;

/**
 * CPU time used by the processes of a measurement (from {@code /proc/PID/stat}): the harness (load
 * driver), the child JVM (gateway or echo), clamd and RabbitMQ, found by name, and a Zipkin server
 * on the machine ({@link #TRACING_SERVER}), found by its command line. On a machine shared with
 * other work, CPU per request depends much less on the neighbours than wall-clock rates do, and it
 * shows which process a request's cost lands in. The child JVM's CPU is also split by thread group
 * ({@link ThreadGroups}): {@code child.broker}, {@code child.solr}, {@code child.indexer}, {@code
 * child.tracing}, {@code child.jit}, {@code child.gc}, {@code child.other} and {@code child.ended}
 * (threads that ended before they were sampled again: the process' total minus its threads'), which
 * are parts of {@code child} and not added to the total again.
 *
 * <p>Beside the CPU, the time the processes' threads spent runnable but waiting for a core (field 2
 * of {@code /proc/PID/task/TID/schedstat}), per request: {@code wait.driver}, {@code wait.child},
 * {@code wait.clamd}, {@code wait.rabbitmq} and their sum {@code wait.total}. It says how long the
 * work of a request queued for the cores, which CPU time alone does not. A thread that ended within
 * the window takes its wait with it.
 */
public final class CpuMeter {

  private static final double TICKS_PER_SECOND = 100.0;

  /**
   * What a tracing server's command line holds: the Zipkin server the {@code --tracing} cells send
   * their spans to, when it runs on this machine (then {@code zipkin=}, in the total: the CPU it
   * takes from the gateway's cores).
   */
  static final String TRACING_SERVER = "zipkin-server";

  private final Map<String, List<Long>> pids = new LinkedHashMap<>();
  private final Map<Long, Long> start = new LinkedHashMap<>();
  private final Map<Long, Long> startWait = new LinkedHashMap<>();
  private final ThreadSampler childThreads;

  CpuMeter(long childPid) {
    pids.put("driver", List.of(ProcessHandle.current().pid()));
    if (childPid > 0) {
      pids.put("child", List.of(childPid));
    }
    childThreads = childPid > 0 ? new ThreadSampler(childPid) : null;
    pids.put("clamd", byName("clamd"));
    pids.put("rabbitmq", byName("beam.smp"));
    List<Long> tracing = byCommandLine(TRACING_SERVER);
    if (!tracing.isEmpty()) {
      pids.put("zipkin", tracing);
    }
    pids.values().forEach(list -> list.forEach(this::begin));
  }

  /**
   * A meter over named groups of processes (e.g. {@code gateways}, {@code solr}, {@code clamd} of a
   * scale-out run), plus the driver and RabbitMQ.
   */
  CpuMeter(Map<String, List<Long>> groups) {
    pids.put("driver", List.of(ProcessHandle.current().pid()));
    pids.putAll(groups);
    pids.put("rabbitmq", byName("beam.smp"));
    pids.values().forEach(list -> list.forEach(this::begin));
    childThreads = null;
  }

  private void begin(long pid) {
    start.put(pid, ticks(pid));
    startWait.put(pid, waitedNanos(pid));
  }

  /**
   * CPU µs per request since construction, e.g. {@code driver=120 child=800 clamd=300 ... total=..
   * child.broker=300 ...}; call once, at the end of the window (it stops the thread sampler).
   */
  String perRequest(long requests) {
    Map<Group, Long> threads = childThreads == null ? Map.of() : childThreads.stop();
    StringBuilder out = new StringBuilder();
    double total = 0;
    long childTicks = 0;
    for (var entry : pids.entrySet()) {
      long ticks = used(entry.getValue());
      childTicks = entry.getKey().equals("child") ? ticks : childTicks;
      double micros = micros(ticks, requests);
      total += micros;
      out.append(String.format(Locale.ROOT, "%s=%.0f ", entry.getKey(), micros));
    }
    out.append(String.format(Locale.ROOT, "total=%.0f", total));
    if (!threads.isEmpty()) {
      long named = 0;
      for (var entry : threads.entrySet()) {
        named += entry.getValue();
        out.append(
            String.format(
                Locale.ROOT,
                " child.%s=%.0f",
                entry.getKey().key,
                micros(entry.getValue(), requests)));
      }
      out.append(
          String.format(
              Locale.ROOT, " child.ended=%.0f", micros(Math.max(0, childTicks - named), requests)));
    }
    double waitedTotal = 0;
    for (var entry : pids.entrySet()) {
      double waited = waited(entry.getValue()) / 1000.0 / Math.max(1, requests);
      waitedTotal += waited;
      out.append(String.format(Locale.ROOT, " wait.%s=%.0f", entry.getKey(), waited));
    }
    out.append(String.format(Locale.ROOT, " wait.total=%.0f", waitedTotal));
    return out.toString();
  }

  private static double micros(long ticks, long requests) {
    return ticks / TICKS_PER_SECOND * 1e6 / Math.max(1, requests);
  }

  /** The pids of the processes whose command ({@code /proc/PID/comm}) is {@code command}. */
  public static List<Long> byName(String command) {
    List<Long> found = new ArrayList<>();
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path proc : procs.toList()) {
        String name = proc.getFileName().toString();
        if (name.chars().allMatch(Character::isDigit)) {
          try {
            if (Files.readString(proc.resolve("comm")).strip().equals(command)) {
              found.add(Long.parseLong(name));
            }
          } catch (IOException e) {
            // the process ended
          }
        }
      }
    } catch (IOException e) {
      // no /proc: no CPU figures
    }
    return found;
  }

  /**
   * The pids of the processes whose command line ({@code /proc/PID/cmdline}) holds {@code part}.
   */
  static List<Long> byCommandLine(String part) {
    List<Long> found = new ArrayList<>();
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path proc : procs.toList()) {
        String name = proc.getFileName().toString();
        if (name.chars().allMatch(Character::isDigit) && commandLine(proc).contains(part)) {
          found.add(Long.parseLong(name));
        }
      }
    } catch (IOException e) {
      // no /proc: no CPU figures
    }
    return found;
  }

  private static String commandLine(Path proc) {
    try {
      return new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return ""; // the process ended
    }
  }

  /**
   * Ticks used since construction by the processes of one group; a process that ended meanwhile (a
   * neighbour's RabbitMQ node, a killed gateway) counts for nothing rather than negatively.
   */
  private long used(List<Long> group) {
    return since(group, start, CpuMeter::ticks);
  }

  /** Nanoseconds the threads of one group waited for a core since construction. */
  private long waited(List<Long> group) {
    return since(group, startWait, CpuMeter::waitedNanos);
  }

  /**
   * How much {@code reading} grew since {@code before} over the processes of {@code group}; a
   * process gone (reading -1) counts for nothing, and a reading that fell (its threads ended) for
   * 0.
   */
  private static long since(List<Long> group, Map<Long, Long> before, LongUnaryOperator reading) {
    long sum = 0;
    for (long pid : group) {
      long now = reading.applyAsLong(pid);
      long then = before.getOrDefault(pid, -1L);
      if (now >= 0 && then >= 0) {
        sum += Math.max(0, now - then);
      }
    }
    return sum;
  }

  /**
   * Nanoseconds the live threads of {@code pid} have spent runnable, waiting for a core (the second
   * field of each {@code /proc/PID/task/TID/schedstat}); -1 when the process is gone or the kernel
   * keeps no such figure.
   */
  static long waitedNanos(long pid) {
    try (Stream<Path> tasks = Files.list(Path.of("/proc", String.valueOf(pid), "task"))) {
      long sum = 0;
      int read = 0;
      for (Path task : tasks.toList()) {
        try {
          String[] fields = Files.readString(task.resolve("schedstat")).strip().split(" ");
          sum += Long.parseLong(fields[1]);
          read++;
        } catch (IOException e) {
          // the thread ended, or the kernel keeps no schedstat
        }
      }
      return read == 0 ? -1 : sum;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** User + system ticks (1/100 s) of {@code pid}, or -1 when it is gone. */
  public static long ticks(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    } catch (IOException | RuntimeException e) {
      return -1; // the process ended
    }
  }
}
