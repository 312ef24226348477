#!/usr/bin/env python3
"""Send a file to the AMQP gateway and print its verdict (pika, RabbitMQ's RPC pattern).

    python amqp_scan.py FILE [--reply direct|server-named] [--url amqp://guest:guest@127.0.0.1:5672/]
                        [--queue av.scan.requests] [--correlation-id ID]

--reply direct        the reply comes on RabbitMQ's direct reply-to pseudo-queue (no queue declared)
--reply server-named  the caller declares a server-named exclusive queue (amq.gen-...), as in
                      RabbitMQ's RPC tutorial, and puts its name in reply_to

Prints one line: the file name, the verdict, the correlation id, then the reply's JSON body.
Exit status: 0 CLEAN, 1 INFECTED, 2 anything else (UNSCANNABLE, ERROR, no reply in time).
"""
import argparse
import json
import os
import sys
import uuid

import pika

DIRECT_REPLY_TO = "amq.rabbitmq.reply-to"


def scan(path, reply, url, request_queue, correlation_id, timeout):
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
                headers={"avFilename": os.path.basename(path)},
            ),
            body=body,
        )
        connection.process_data_events(time_limit=0)
        waited = 0.0
        while "body" not in answer and waited < timeout:
            connection.process_data_events(time_limit=0.2)
            waited += 0.2
        return correlation_id, answer.get("body")
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
    args = parser.parse_args()
    correlation_id = args.correlation_id or str(uuid.uuid4())
    correlation_id, result = scan(
        args.file, args.reply, args.url, args.queue, correlation_id, args.timeout
    )
    if result is None:
        print(f"{args.file}: NO_REPLY {correlation_id}")
        return 2
    print(f"{args.file}: {result['verdict']} {result['correlationId']} {json.dumps(result)}")
    return {"CLEAN": 0, "INFECTED": 1}.get(result["verdict"], 2)


if __name__ == "__main__":
    sys.exit(main())
