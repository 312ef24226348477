#!/usr/bin/env python3
"""Put a file into an AMQP clean-pipe and print which outlet it came out of (pika).

    python pipe_publish.py FILE [--inbox av.inbox.uploads] [--clean uploads.clean]
                                [--quarantine uploads.quarantine] [--rejected uploads.rejected]
                                [--url amqp://guest:guest@127.0.0.1:5672/]

The gateway must run with that pipe configured (avgateway.amqp.pipes[0].inbox=... and so on). The
file goes to the inbox with a message_id of its own; the script then watches the three outlets for
a message with that message_id (other messages there are left alone) and prints one line:
the file name, avVerdict, the message_id, then the outlet and the gateway's headers as JSON.
Exit status: 0 clean, 1 quarantine, 2 rejected or not seen in time.
"""
import argparse
import json
import os
import sys
import time
import uuid

import pika


def run(path, url, inbox, outlets, timeout):
    with open(path, "rb") as f:
        body = f.read()
    message_id = str(uuid.uuid4())
    connection = pika.BlockingConnection(pika.URLParameters(url))
    try:
        channel = connection.channel()
        channel.confirm_delivery()
        channel.basic_publish(
            exchange="",
            routing_key=inbox,
            mandatory=True,
            properties=pika.BasicProperties(
                message_id=message_id,
                delivery_mode=pika.DeliveryMode.Persistent,
                content_type="application/octet-stream",
                headers={"avFilename": os.path.basename(path)},
            ),
            body=body,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for outlet in outlets:
                method, properties, forwarded = channel.basic_get(queue=outlet, auto_ack=False)
                if method is None:
                    continue
                if properties.message_id != message_id:
                    channel.basic_nack(method.delivery_tag, requeue=True)
                    continue
                channel.basic_ack(method.delivery_tag)
                headers = {k: v for k, v in (properties.headers or {}).items() if k.startswith("av")}
                headers = {k: v.decode() if isinstance(v, bytes) else v for k, v in headers.items()}
                same = forwarded == body
                return message_id, outlet, headers, same
            time.sleep(0.1)
        return message_id, None, {}, False
    finally:
        connection.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--url", default=os.environ.get("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
    parser.add_argument("--inbox", default="av.inbox.uploads")
    parser.add_argument("--clean", default="uploads.clean")
    parser.add_argument("--quarantine", default="uploads.quarantine")
    parser.add_argument("--rejected", default="uploads.rejected")
    parser.add_argument("--timeout", type=float, default=30.0)
    args = parser.parse_args()
    outlets = [args.clean, args.quarantine, args.rejected]
    message_id, outlet, headers, same = run(args.file, args.url, args.inbox, outlets, args.timeout)
    if outlet is None:
        print(f"{args.file}: NOT_SEEN {message_id}")
        return 2
    report = {"outlet": outlet, "bodyUnchanged": same, "headers": headers}
    print(f"{args.file}: {headers.get('avVerdict')} {message_id} {json.dumps(report)}")
    return {args.clean: 0, args.quarantine: 1}.get(outlet, 2)


if __name__ == "__main__":
    sys.exit(main())
