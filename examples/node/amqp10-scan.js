#!/usr/bin/env node
// Send a file to the JMS gateway's embedded broker over AMQP 1.0 and print its verdict (rhea).
//
//   node amqp10-scan.js FILE [--host 127.0.0.1] [--port 61616] [--queue av.scan.requests]
//                            [--correlation-id ID] [--zipkin http://127.0.0.1:9411/api/v2/spans]
//                            [--traceparent VALUE]
//
// The reply comes on a dynamic node: a temporary queue the broker creates for this connection
// alone (the JMS gateway accepts temporary queues as reply destinations by default; the request
// says reply_to is one with the annotation x-opt-jms-reply-to = 2).
//
// --zipkin URL: send the file inside a span of the caller's own: a new W3C trace whose traceparent
// goes in the request's application properties (the gateway continues it) and whose span is
// reported to Zipkin's v2 span API at URL; prints "trace ID" first and the reply's traceparent (the
// gateway's reply span) before the result. --traceparent VALUE: send this
// traceparent as it is (a caller's own trace context).
//
// Prints one line: the file name, the verdict, the correlation id, then the reply's JSON body.
// Exit status: 0 CLEAN, 1 INFECTED, 2 anything else (UNSCANNABLE, ERROR, no reply in time).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { randomBytes, randomUUID } = require('node:crypto');
const rhea = require('rhea');

function option(args, name, fallback) {
  const at = args.indexOf(name);
  return at >= 0 && at + 1 < args.length ? args[at + 1] : fallback;
}

/** The reply's body as text: a Data section (a BytesMessage reply) or a plain value. */
function bodyText(body) {
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  if (body && Buffer.isBuffer(body.content)) return body.content.toString('utf8');
  return String(body);
}

/** A W3C trace id and span id for the caller's span, and its traceparent (sampled). */
function newTrace() {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/** Reports the caller's span to Zipkin (v2 JSON): the request sent and its reply received. */
async function reportSpan(zipkin, trace, startedMs, endedMs, result) {
  const span = {
    traceId: trace.traceId,
    id: trace.spanId,
    name: 'scan file',
    kind: 'PRODUCER',
    timestamp: Math.round(startedMs * 1000),
    duration: Math.max(1, Math.round((endedMs - startedMs) * 1000)),
    localEndpoint: { serviceName: 'node-caller' },
    tags: { 'av.verdict': result ? result.verdict : 'NO_REPLY' },
  };
  const response = await fetch(zipkin, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([span]),
  });
  if (!response.ok) throw new Error(`Zipkin answered ${response.status}`);
}

function scan(file, host, port, requestQueue, correlationId, timeoutMs, traceparent) {
  const body = fs.readFileSync(file);
  return new Promise((resolve, reject) => {
    const container = rhea.create_container();
    const connection = container.connect({ host, port, reconnect: false });
    const done = (result, replyTraceparent) => {
      clearTimeout(timer);
      connection.close();
      resolve({ correlationId, result, replyTraceparent });
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    connection.on('connection_error', (context) => reject(context.connection.error));
    connection.on('disconnected', (context) => {
      if (context.error) reject(context.error);
    });
    const receiver = connection.open_receiver({ source: { dynamic: true } });
    receiver.on('receiver_open', (context) => {
      const replyTo = context.receiver.source.address;
      const sender = connection.open_sender({
        target: { address: requestQueue, capabilities: ['queue'] },
      });
      sender.on('sendable', (ctx) => {
        if (ctx.sender.sent) return;
        ctx.sender.sent = true;
        ctx.sender.send({
          message_id: randomUUID(), // names the request in history: unique per request
          correlation_id: correlationId,
          reply_to: replyTo,
          durable: true,
          content_type: 'application/octet-stream',
          application_properties: traceparent
            ? { avFilename: path.basename(file), traceparent }
            : { avFilename: path.basename(file) },
          // Marks reply_to as a temporary queue, as Qpid JMS does; without it the broker hands the
          // gateway a plain queue name, which the reply allow-list refuses.
          message_annotations: { 'x-opt-jms-reply-to': 2 },
          body: rhea.message.data_section(body), // a Data section: scanned as the file's bytes
        });
      });
    });
    receiver.on('message', (context) => {
      if (context.message.correlation_id === correlationId) {
        const properties = context.message.application_properties || {};
        done(JSON.parse(bodyText(context.message.body)), properties.traceparent);
      }
    });
  });
}

async function main() {
  const args = process.argv.slice(2);
  const file = args.find((a, i) => !a.startsWith('--') && (i === 0 || !args[i - 1].startsWith('--')));
  if (!file) {
    console.error('usage: node amqp10-scan.js FILE [--host H] [--port P] [--queue Q]');
    return 2;
  }
  const host = option(args, '--host', '127.0.0.1');
  const port = Number(option(args, '--port', '61616'));
  const requestQueue = option(args, '--queue', 'av.scan.requests');
  const timeoutMs = Number(option(args, '--timeout', '30')) * 1000;
  const correlationId = option(args, '--correlation-id', randomUUID());
  const zipkin = option(args, '--zipkin', null);
  const trace = zipkin ? newTrace() : null;
  if (trace) console.log(`trace ${trace.traceId}`);
  const traceparent = trace ? trace.traceparent : option(args, '--traceparent', null);
  const startedMs = Date.now();
  const { result, replyTraceparent } = await scan(
    file,
    host,
    port,
    requestQueue,
    correlationId,
    timeoutMs,
    traceparent,
  );
  if (trace) {
    await reportSpan(zipkin, trace, startedMs, Date.now(), result);
    console.log(`reply traceparent ${replyTraceparent}`);
  }
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
