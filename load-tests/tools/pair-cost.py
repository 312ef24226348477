#!/usr/bin/env python3
"""What a variant costs against another, pair by pair, from perf-harness raw results.

  load-tests/tools/pair-cost.py TARGET BASE OTHER RAW [RAW ...]
  e.g. load-tests/tools/pair-cost.py gateway-amqp history-on tracing-10pct \\
         perf-notes/raw/harness-20261129-141942.txt perf-notes/raw/harness-20261129-153819.txt

A pair is round N of BASE and round N of OTHER in one raw file (the harness alternates their order
from round to round). Only the closed-loop measured cells count (not 'cold 0-10s', not '@N/s').
For each pair: both throughputs, OTHER's change in per cent, and the change in CPU microseconds per
request of each process group the harness counts (driver, child = the gateway JVM, clamd, the
broker, the tracing server, total; child.* = the gateway's thread groups). Then, over all pairs of
all files given: mean, median, lowest and highest change. A pair's change is noise plus cost; the
spread of the changes says how far one invocation's figure can be trusted.
"""
import re
import statistics
import sys

CELL = re.compile(r"^(\S+)\s+(\S+)(?:\s+#(\d+))?\s+(\d+KiB|\d+MiB)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s")
GROUPS = ("driver", "child", "clamd", "rabbitmq", "zipkin", "total",
          "child.other", "child.jit", "child.gc", "child.tracing", "child.solr")


def cells(path, target):
    found = {}
    for line in open(path, encoding="utf-8"):
        m = CELL.match(line)
        if not m or m.group(1) != target:
            continue
        rest = line[m.end():]  # the regex matches no 'cold 0-10s' or '@N/s' cell: no size follows
        variant, rnd = m.group(2), int(m.group(3) or 1)
        cpu = dict((k, int(v)) for k, v in re.findall(r"(\S+?)=(\d+)", rest))
        found[(variant, rnd)] = (float(m.group(8)), cpu)
    return found


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    target, base, other, files = argv[1], argv[2], argv[3], argv[4:]
    changes = []
    print(f"# {target}: {other} against {base}; CPU in microseconds per request, OTHER minus BASE")
    print(f"{'raw':<28}{'round':>5}{'base r/s':>10}{'other r/s':>10}{'change':>8}  " + " ".join(f"{g:>8}" for g in GROUPS))
    for path in files:
        found = cells(path, target)
        name = re.sub(r".*/", "", path)
        rounds = sorted(r for (v, r) in found if v == base and (other, r) in found)
        for r in rounds:
            (b, bc), (o, oc) = found[(base, r)], found[(other, r)]
            change = (o / b - 1) * 100
            changes.append(change)
            deltas = " ".join(f"{oc.get(g, 0) - bc.get(g, 0):>+8d}" for g in GROUPS)
            print(f"{name:<28}{r:>5}{b:>10.1f}{o:>10.1f}{change:>+7.1f}%  {deltas}")
    if not changes:
        sys.exit(f"no pairs of {base} and {other} for {target} in {' '.join(files)}")
    print(f"# {len(changes)} pairs: mean {statistics.mean(changes):+.1f} %, median "
          f"{statistics.median(changes):+.1f} %, lowest {min(changes):+.1f} %, highest {max(changes):+.1f} %"
          + (f", standard deviation {statistics.stdev(changes):.1f} points" if len(changes) > 1 else ""))


if __name__ == "__main__":
    main(sys.argv)
