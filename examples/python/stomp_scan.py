#!/usr/bin/env python3
"""Send a file to the JMS gateway over STOMP and print its verdict (stomp.py).

    python stomp_scan.py FILE [--host 127.0.0.1] [--port 61616] [--queue av.scan.requests]
                             [--correlation-id ID]

STOMP has no temporary queues, so the caller subscribes to a reply queue of its own under the
gateway's reply prefix (av.reply.<uuid>); the embedded broker creates such queues when a caller
subscribes (avgateway.jms.embedded.auto-create-reply-queues) and removes them once unused.
The file goes as a SEND with content-length (stomp.py adds it for a bytes body): a frame without
one would be a text message, which the gateway dead-letters as MALFORMED_REQUEST.

Prints one line: the file name, the verdict, the correlation id, then the reply's JSON body.
Exit status: 0 CLEAN, 1 INFECTED, 2 anything else (UNSCANNABLE, ERROR, no reply in time).
"""
import argparse
import json
import os
import queue
import sys
import uuid

import stomp


class Replies(stomp.ConnectionListener):
    def __init__(self):
        self.received = queue.Queue()

    def on_message(self, frame):
        self.received.put(frame)


def scan(path, host, port, request_queue, correlation_id, timeout, user, password):
    with open(path, "rb") as f:
        body = f.read()
    connection = stomp.Connection12([(host, port)])
    replies = Replies()
    connection.set_listener("replies", replies)
    connection.connect(user, password, wait=True)
    try:
        reply_queue = "av.reply." + str(uuid.uuid4())
        # ANYCAST: a queue, as the gateway's replies need, never a topic.
        connection.subscribe(
            destination=reply_queue, id="1", ack="auto", headers={"subscription-type": "ANYCAST"}
        )
        connection.send(
            destination=request_queue,
            body=body,
            headers={
                "reply-to": reply_queue,
                "correlation-id": correlation_id,  # STOMP has no message id: match on this
                "avFilename": os.path.basename(path),
                "persistent": "true",
                "destination-type": "ANYCAST",
            },
        )
        try:
            while True:
                frame = replies.received.get(timeout=timeout)
                if frame.headers.get("correlation-id") == correlation_id:
                    return correlation_id, json.loads(frame.body)
        except queue.Empty:
            return correlation_id, None
    finally:
        connection.disconnect()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=61616)
    parser.add_argument("--queue", default="av.scan.requests")
    parser.add_argument("--user", default=os.environ.get("STOMP_USER"))
    parser.add_argument("--password", default=os.environ.get("STOMP_PASSWORD"))
    parser.add_argument("--correlation-id", default=None, help="default: a new UUID")
    parser.add_argument("--timeout", type=float, default=30.0)
    args = parser.parse_args()
    correlation_id = args.correlation_id or str(uuid.uuid4())
    correlation_id, result = scan(
        args.file,
        args.host,
        args.port,
        args.queue,
        correlation_id,
        args.timeout,
        args.user,
        args.password,
    )
    if result is None:
        print(f"{args.file}: NO_REPLY {correlation_id}")
        return 2
    print(f"{args.file}: {result['verdict']} {result['correlationId']} {json.dumps(result)}")
    return {"CLEAN": 0, "INFECTED": 1}.get(result["verdict"], 2)


if __name__ == "__main__":
    sys.exit(main())
