#!/usr/bin/env node
// Send a file to the AMQP gateway and print its verdict (amqplib, RabbitMQ's RPC pattern).
//
//   node amqp-scan.js FILE [--reply direct|server-named] [--url amqp://guest:guest@127.0.0.1:5672]
//                          [--queue av.scan.requests] [--correlation-id ID]
//
// --reply direct        the reply comes on RabbitMQ's direct reply-to pseudo-queue
// --reply server-named  the caller declares a server-named exclusive queue (amq.gen-...)
//
// Prints one line: the file name, the verdict, the correlation id, then the reply's JSON body.
// Exit status: 0 CLEAN, 1 INFECTED, 2 anything else (UNSCANNABLE, ERROR, no reply in time).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const amqp = require('amqplib');

const DIRECT_REPLY_TO = 'amq.rabbitmq.reply-to';

function option(args, name, fallback) {
  const at = args.indexOf(name);
  return at >= 0 && at + 1 < args.length ? args[at + 1] : fallback;
}

async function scan(file, reply, url, requestQueue, correlationId, timeoutMs) {
  const body = fs.readFileSync(file);
  const connection = await amqp.connect(url);
  try {
    const channel = await connection.createChannel();
    const replyTo =
      reply === 'direct'
        ? DIRECT_REPLY_TO
        : (await channel.assertQueue('', { exclusive: true })).queue;
    const answer = new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), timeoutMs);
      channel.consume(
        replyTo,
        (message) => {
          if (message && message.properties.correlationId === correlationId) {
            clearTimeout(timer);
            resolve(JSON.parse(message.content.toString('utf8')));
          }
        },
        { noAck: true },
      );
    });
    channel.sendToQueue(requestQueue, body, {
      messageId: randomUUID(), // required: names the request in history
      correlationId,
      replyTo,
      persistent: true,
      contentType: 'application/octet-stream',
      headers: { avFilename: path.basename(file) },
    });
    return { correlationId, result: await answer };
  } finally {
    await connection.close();
  }
}

async function main() {
  const args = process.argv.slice(2);
  const file = args.find((a, i) => !a.startsWith('--') && (i === 0 || !args[i - 1].startsWith('--')));
  if (!file) {
    console.error('usage: node amqp-scan.js FILE [--reply direct|server-named] [--url URL]');
    return 2;
  }
  const reply = option(args, '--reply', 'direct');
  const url = option(args, '--url', process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672');
  const requestQueue = option(args, '--queue', 'av.scan.requests');
  const timeoutMs = Number(option(args, '--timeout', '30')) * 1000;
  const correlationId = option(args, '--correlation-id', randomUUID());
  const { result } = await scan(
    file,
    reply,
    url,
    requestQueue,
    correlationId,
    timeoutMs,
  );
  if (!result) {
    console.log(`${file}: NO_REPLY ${correlationId}`);
    return 2;
  }
  console.log(`${file}: ${result.verdict} ${result.correlationId} ${JSON.stringify(result)}`);
  return { CLEAN: 0, INFECTED: 1 }[result.verdict] ?? 2;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(2);
  },
);
