#!/usr/bin/env python3
"""Sums a JFR recording's execution samples by the component that was working.

Usage: jfr print --events jdk.ExecutionSample REC.jfr > samples.txt
       load-tests/tools/jfr-summary.py samples.txt [LAST_SECONDS [PREFIX]]

With LAST_SECONDS, only the samples of the recording's last seconds count (e.g. the warm part of a
harness run, after the cold first minute; 0 counts them all). With PREFIX (a package or class name),
the samples with a frame starting with it are also counted by the outermost such frame: where the
work inside it was entered from (print with --stack-depth 64, or frames beyond the fifth are cut).

Each sample is charged to the first frame, from the top of its stack, that belongs to a known
component (JDK frames are skipped, except hashing and socket I/O, which are components of their own):
so a HashMap lookup inside Solr counts as Solr.
"""
import collections
import re
import sys

COMPONENTS = [
    ("SHA-256", ("sun.security.provider.SHA2", "sun.security.provider.DigestBase")),
    ("socket I/O (JDK)", ("sun.nio.ch.", "java.net.Socket", "sun.nio.ch.NioSocketImpl")),
    ("Solr/Lucene (history)", ("org.apache.solr.", "org.apache.lucene.")),
    ("Artemis (broker + client)", ("org.apache.activemq.",)),
    ("RabbitMQ client", ("com.rabbitmq.",)),
    ("Spring AMQP", ("org.springframework.amqp.",)),
    ("Spring JMS/other Spring", ("org.springframework.",)),
    ("Jackson (reply JSON)", ("tools.jackson.", "com.fasterxml.jackson.")),
    (
        "tracing (Brave, Micrometer Tracing, Zipkin reporter, gateway trace)",
        ("brave.", "zipkin2.", "io.micrometer.tracing.", "io.github.avgateway.core.trace."),
    ),
    ("gateway: clamd client", ("io.github.avgateway.core.clamd.",)),
    ("gateway: Solr recorder", ("io.github.avgateway.solr.",)),
    ("gateway: pipeline + front-end", ("io.github.avgateway.",)),
    ("Netty", ("io.netty.",)),
    ("logging", ("ch.qos.logback.", "org.slf4j.")),
]
JDK = ("java.", "jdk.", "sun.", "javax.")


def component(frames):
    for frame in frames:
        for name, prefixes in COMPONENTS:
            if frame.startswith(prefixes):
                return name
        if not frame.startswith(JDK):
            return "other: " + ".".join(frame.split(".")[:3])
    return "JDK only"


def seconds(event):
    found = re.search(r"startTime = (\d+):(\d+):(\d+)\.(\d+)", event)
    if not found:
        return None
    h, m, s, frac = found.groups()
    return int(h) * 3600 + int(m) * 60 + int(s) + float("0." + frac)


def main(path, last_seconds=None, prefix=None):
    text = open(path, encoding="utf-8").read()
    events = text.split("jdk.ExecutionSample")[1:]
    if last_seconds:
        end = max(t for t in map(seconds, events) if t is not None)
        events = [e for e in events if (seconds(e) or 0) >= end - last_seconds]
    counts = collections.Counter()
    for event in events:
        frames = re.findall(r"^\s+([\w$.<>/]+)\(", event, re.M)
        if frames:
            counts[component(frames)] += 1
    total = sum(counts.values())
    print(f"{total} samples")
    for name, n in counts.most_common(20):
        print(f"{100 * n / total:5.1f}%  {n:6d}  {name}")
    if prefix:
        entered(events, prefix, total)


def entered(events, prefix, total):
    """Counts the samples inside PREFIX by their outermost frame there."""
    counts = collections.Counter()
    for event in events:
        frames = re.findall(r"^\s+([\w$.<>/]+)\(", event, re.M)
        inside = [frame for frame in frames if frame.startswith(prefix)]
        if inside:
            counts[inside[-1]] += 1
    print(f"{sum(counts.values())} samples with a frame in {prefix}, by the outermost one")
    for name, n in counts.most_common(20):
        print(f"{100 * n / total:5.1f}%  {n:6d}  {name}")


if __name__ == "__main__":
    main(
        sys.argv[1],
        float(sys.argv[2]) if len(sys.argv) > 2 else None,
        sys.argv[3] if len(sys.argv) > 3 else None,
    )
