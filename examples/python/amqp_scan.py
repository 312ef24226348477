#!/usr/bin/env python3
"""Send a file to the AMQP gateway and print its verdict (pika, RabbitMQ's RPC pattern).

    python amqp_scan.py FILE [--reply direct|server-named] [--url amqp://guest:guest@127.0.0.1:5672/]
                        [--queue av.scan.requests] [--correlation-id ID]
                        [--zipkin http://127.0.0.1:9411/api/v2/spans] [--traceparent VALUE]

--reply direct        the reply comes on RabbitMQ's direct reply-to pseudo-queue (no queue declared)
--reply server-named  the caller declares a server-named exclusive queue (amq.gen-...), as in
                      RabbitMQ's RPC tutorial, and puts its name in reply_to

--zipkin URL          send the file inside a span of the caller's own: a new W3C trace whose
                      traceparent goes in the request's headers (the gateway continues it) and
                      whose span is reported to Zipkin's v2 span API at URL; prints "trace ID" first
                      and the reply's traceparent (the gateway's reply span) before the result
--traceparent VALUE   send this traceparent header as it is (a caller's own trace context)

Prints one line: the file name, the verdict, the correlation id, then the reply's JSON body.
Exit status: 0 CLEAN, 1 INFECTED, 2 anything else (UNSCANNABLE, ERROR, no reply in time).
"""
import argparse
import json
import os
import sys
import time
import urllib.request
import uuid

import pika

DIRECT_REPLY_TO = "amq.rabbitmq.reply-to"


def new_trace():
    """A W3C trace id and span id for the caller's span, and its traceparent (sampled)."""
    trace_id, span_id = os.urandom(16).hex(), os.urandom(8).hex()
    return trace_id, span_id, f"00-{trace_id}-{span_id}-01"


def report_span(zipkin, trace_id, span_id, started, ended, result):
    """Reports the caller's span to Zipkin (v2 JSON): the request sent and its reply received."""
    span = {
        "traceId": trace_id,
        "id": span_id,
        "name": "scan file",
        "kind": "PRODUCER",
        "timestamp": int(started * 1_000_000),
        "duration": max(1, int((ended - started) * 1_000_000)),
        "localEndpoint": {"serviceName": "python-caller"},
        "tags": {"av.verdict": result["verdict"] if result else "NO_REPLY"},
    }
    request = urllib.request.Request(
        zipkin, data=json.dumps([span]).encode(), method="POST",
        headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=10).close()


def scan(path, reply, url, request_queue, correlation_id, timeout, traceparent=None):
    with open(path, "rb") as f:
        body = f.read()
    connection = pika.BlockingConnection(pika.URLParameters(url))
    try:
        channel = connection.channel()
        if reply == "direct":
            reply_to = DIRECT_REPLY_TO
        else:
            declared = channel.queue_declare(queue="", exclusive=True)
            reply_to = declared.method.queue
        answer = {}

        def on_reply(ch, method, properties, reply_body):
            if properties.correlation_id == correlation_id:
                answer["headers"] = properties.headers or {}
                answer["body"] = json.loads(reply_body)

        headers = {"avFilename": os.path.basename(path)}
        if traceparent:
            headers["traceparent"] = traceparent
        # Direct reply-to needs the consumer before the publish; it is harmless for a queue too.
        channel.basic_consume(queue=reply_to, on_message_callback=on_reply, auto_ack=True)
        channel.basic_publish(
            exchange="",
            routing_key=request_queue,
            properties=pika.BasicProperties(
                message_id=str(uuid.uuid4()),  # required: names the request in history
                correlation_id=correlation_id,
                reply_to=reply_to,
                delivery_mode=pika.DeliveryMode.Persistent,
                content_type="application/octet-stream",
                headers=headers,
            ),
            body=body,
        )
        connection.process_data_events(time_limit=0)
        waited = 0.0
        while "body" not in answer and waited < timeout:
            connection.process_data_events(time_limit=0.2)
            waited += 0.2
        return correlation_id, answer.get("body"), answer.get("headers", {}).get("traceparent")
    finally:
        connection.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--reply", choices=["direct", "server-named"], default="direct")
    parser.add_argument("--url", default=os.environ.get("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
    parser.add_argument("--queue", default="av.scan.requests")
    parser.add_argument("--correlation-id", default=None, help="default: a new UUID")
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--zipkin", default=None, help="report the caller's span to this URL")
    parser.add_argument("--traceparent", default=None, help="send this traceparent as it is")
    args = parser.parse_args()
    correlation_id = args.correlation_id or str(uuid.uuid4())
    traceparent = args.traceparent
    if args.zipkin:
        trace_id, span_id, traceparent = new_trace()
        print(f"trace {trace_id}")
    started = time.time()
    correlation_id, result, reply_traceparent = scan(
        args.file, args.reply, args.url, args.queue, correlation_id, args.timeout, traceparent
    )
    if args.zipkin:
        report_span(args.zipkin, trace_id, span_id, started, time.time(), result)
        print(f"reply traceparent {reply_traceparent}")
    if result is None:
        print(f"{args.file}: NO_REPLY {correlation_id}")
        return 2
    print(f"{args.file}: {result['verdict']} {result['correlationId']} {json.dumps(result)}")
    return {"CLEAN": 0, "INFECTED": 1}.get(result["verdict"], 2)


if __name__ == "__main__":
    sys.exit(main())
