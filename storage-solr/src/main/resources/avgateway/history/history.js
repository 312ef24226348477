// The history page: reads /api/history/* and renders totals, an hourly chart (inline SVG), top
// signatures, recent scans and searches. Every value from the store is inserted as text, never as
// markup (file names come from the outside world).
'use strict';

const VERDICTS = ['CLEAN', 'INFECTED', 'UNSCANNABLE', 'ERROR'];
const HOUR = 3600 * 1000;
const RECENT_LIMIT = 25;
const SVG = 'http://www.w3.org/2000/svg';

// URLs are built on location.origin: it never carries user:password@, which fetch refuses.
async function api(path, params) {
  const url = new URL('/api/history/' + path, location.origin);
  for (const [key, value] of Object.entries(params || {})) {
    if (value !== undefined && value !== null) url.searchParams.set(key, value);
  }
  const response = await fetch(url, { headers: { Accept: 'application/json' } });
  if (response.ok) return response.json();
  let problem = null;
  try { problem = await response.json(); } catch (ignored) { /* not JSON */ }
  const error = new Error((problem && problem.detail) || response.status + ' ' + response.statusText);
  error.status = response.status;
  error.storeUnreachable = response.status === 503 || (problem && problem.error === 'STORE_UNAVAILABLE');
  throw error;
}

// What the page says when the history store (Solr) refused or did not answer: the API's 503.
const STORE_UNREACHABLE = 'History store unreachable: the scan history cannot be shown right now. '
  + 'Scanning is not affected; try again later.';

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

const pad = (n) => String(n).padStart(2, '0');

function formatTime(iso) {
  const d = new Date(iso);
  const time = pad(d.getHours()) + ':' + pad(d.getMinutes()) + ':' + pad(d.getSeconds());
  const today = new Date().toDateString() === d.toDateString();
  return today ? time : d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate()) + ' ' + time;
}

function formatSize(bytes) {
  if (bytes < 1024) return bytes + ' B';
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
  return value.toFixed(value < 10 ? 1 : 0) + ' ' + units[unit];
}

function currentRange() {
  const hours = Number(document.getElementById('range').value);
  const to = Math.floor(Date.now() / HOUR) * HOUR + HOUR; // the end of the current hour
  return { hours, from: new Date(to - hours * HOUR).toISOString(), to: new Date(to).toISOString() };
}

function showError(message) {
  const box = document.getElementById('error');
  box.textContent = message;
  box.hidden = !message;
}

// --- tables -------------------------------------------------------------------------------------

function outcome(doc) {
  if (doc.signatures && doc.signatures.length) return doc.signatures.join(', ');
  if (doc.reason) return doc.reason + (doc.deadLetterReason ? ' · dead-lettered ' + doc.deadLetterReason : '');
  return doc.deadLetterReason ? 'dead-lettered ' + doc.deadLetterReason : '';
}

function scanRow(doc) {
  const sha = doc.sha256 || '';
  const shaCell = el('td', { class: 'mono' });
  if (sha) {
    const link = el('a', { class: 'sha', href: '#', title: sha, text: sha.slice(0, 12) + '…' });
    link.addEventListener('click', (event) => { event.preventDefault(); search(sha); });
    shaCell.append(link);
  }
  return el('tr', { 'data-request-id': doc.requestId, 'data-verdict': doc.verdict },
    el('td', { class: 'time', title: doc.receivedAt, text: formatTime(doc.receivedAt) }),
    el('td', {}, el('span', { class: 'badge ' + doc.verdict, text: doc.verdict })),
    el('td', { class: 'file', text: doc.filename || '—' }),
    el('td', { class: 'num', text: formatSize(doc.sizeBytes) }),
    el('td', { text: outcome(doc) }),
    el('td', { class: 'mono', title: doc.requestId, text: shorten(doc.requestId, 28) }),
    shaCell,
    el('td', { text: doc.transport }),
    el('td', { class: 'num', text: doc.scanMillis + ' ms' + (doc.cached ? ' (cached)' : '') }));
}

function shorten(text, max) {
  return text.length <= max ? text : text.slice(0, max - 1) + '…';
}

const COLUMNS = [['Received'], ['Verdict'], ['File'], ['Size', 'num'], ['Signature / reason'],
  ['Request id'], ['SHA-256'], ['Transport'], ['Scan', 'num']];

function fillTable(tbody, docs, emptyText) {
  const table = tbody.closest('table');
  if (!table.tHead) {
    table.createTHead().append(el('tr', {}, ...COLUMNS.map(([name, css]) => el('th', { class: css || '', text: name }))));
  }
  tbody.replaceChildren(...(docs.length
    ? docs.map(scanRow)
    : [el('tr', {}, el('td', { class: 'empty', colspan: String(COLUMNS.length), text: emptyText }))]));
}

// --- chart --------------------------------------------------------------------------------------

// The top of the y axis: four equal whole-number steps of 1, 2, 3 or 5 × 10^k covering the tallest bar.
function niceMax(value) {
  const wanted = Math.max(1, value / 4);
  const magnitude = Math.pow(10, Math.floor(Math.log10(wanted)));
  const step = [1, 2, 3, 5, 10].map((m) => m * magnitude).find((s) => s >= wanted);
  return 4 * step;
}

function hourLabel(date, hours) {
  const h = pad(date.getUTCHours()) + ':00';
  return hours > 24 ? pad(date.getUTCMonth() + 1) + '-' + pad(date.getUTCDate()) + (date.getUTCHours() ? ' ' + h : '') : h;
}

function renderChart(buckets, hours) {
  const width = 760, height = 260, left = 40, right = 10, top = 12, bottom = 28;
  const plotW = width - left - right, plotH = height - top - bottom;
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': 'Scans per hour by verdict' });
  const max = niceMax(Math.max(0, ...buckets.map((b) => VERDICTS.reduce((s, v) => s + b.counts[v], 0))));
  for (let i = 0; i <= 4; i++) {
    const y = top + plotH - (plotH * i) / 4;
    chart.append(svg('line', { class: 'grid', x1: left, x2: width - right, y1: y, y2: y }));
    chart.append(svg('text', { class: 'axis', x: left - 6, y: y + 4, 'text-anchor': 'end' }, String((max * i) / 4)));
  }
  const slot = plotW / Math.max(buckets.length, 1);
  const barW = Math.max(1, slot * 0.72);
  const every = hours <= 24 ? 3 : hours <= 72 ? 12 : 24;
  buckets.forEach((bucket, i) => {
    const hour = new Date(bucket.hour);
    const x = left + i * slot + (slot - barW) / 2;
    let y = top + plotH;
    for (const verdict of VERDICTS) {
      const count = bucket.counts[verdict];
      if (!count) continue;
      const h = (plotH * count) / max;
      y -= h;
      const bar = svg('rect', { class: verdict, x: x.toFixed(1), y: y.toFixed(1), width: barW.toFixed(1), height: h.toFixed(1),
        'data-verdict': verdict, 'data-count': count, 'data-hour': bucket.hour });
      bar.append(svg('title', {}, hourLabel(hour, 48) + ' UTC · ' + verdict + ' ' + count));
      chart.append(bar);
    }
    if (hour.getUTCHours() % every === 0) {
      chart.append(svg('text', { class: 'axis', x: (left + i * slot + slot / 2).toFixed(1), y: height - 8, 'text-anchor': 'middle' },
        hourLabel(hour, hours)));
    }
  });
  if (!buckets.some((b) => VERDICTS.some((v) => b.counts[v]))) {
    chart.append(svg('text', { class: 'empty', x: left + plotW / 2, y: top + plotH / 2, 'text-anchor': 'middle' }, 'no scans in this range'));
  }
  document.getElementById('chart').replaceChildren(chart);
}

function renderTotals(buckets) {
  for (const verdict of VERDICTS) {
    const total = buckets.reduce((sum, b) => sum + b.counts[verdict], 0);
    document.getElementById('total-' + verdict).textContent = total.toLocaleString('en');
  }
}

function renderSignatures(signatures) {
  const list = document.getElementById('top-signatures');
  if (!signatures.length) {
    list.replaceChildren(el('li', { class: 'empty', text: 'no signatures found in this range' }));
    return;
  }
  const max = signatures[0].count;
  list.replaceChildren(...signatures.map((s) => {
    const fill = el('div');
    fill.style.width = Math.max(2, (100 * s.count) / max) + '%';
    return el('li', { 'data-signature': s.signature, 'data-count': s.count },
      el('div', { class: 'name' }, el('span', { text: s.signature }), el('span', { class: 'count', text: String(s.count) })),
      el('div', { class: 'bar' }, fill));
  }));
}

// --- loading and search -------------------------------------------------------------------------

async function load() {
  document.body.dataset.state = 'loading';
  const range = currentRange();
  const params = { from: range.from, to: range.to };
  try {
    const [hourly, signatures, recent] = await Promise.all([
      api('verdicts-per-hour', params),
      api('top-signatures', { ...params, limit: 10 }),
      api('recent', { ...params, limit: RECENT_LIMIT }),
    ]);
    renderTotals(hourly);
    renderChart(hourly, range.hours);
    renderSignatures(signatures);
    fillTable(document.querySelector('#recent tbody'), recent, 'no scans in this range');
    document.getElementById('updated').textContent = 'updated ' + formatTime(new Date().toISOString());
    showError('');
    document.body.dataset.state = 'loaded';
  } catch (e) {
    showError(e.storeUnreachable ? STORE_UNREACHABLE : 'Could not load the history: ' + e.message);
    document.body.dataset.state = e.storeUnreachable ? 'store-unreachable' : 'failed';
  }
}

// A request id names one scan; when none has it, the text is looked up as a correlation id.
async function byRequestOrCorrelationId(query, summary) {
  try {
    const doc = await api('by-request-id', { requestId: query });
    summary.textContent = 'Request ' + query;
    return [doc];
  } catch (e) {
    if (e.status !== 404) throw e;
  }
  const docs = await api('by-correlation-id', { correlationId: query, limit: 50 });
  summary.textContent = docs.length === 0
    ? 'No scan with request id or correlation id ' + query
    : docs.length + ' scan' + (docs.length === 1 ? '' : 's') + ' with correlation id ' + query;
  return docs;
}

// 32 hex digits may be a W3C trace id: the scans of that trace, else a request or correlation id.
async function byTraceOrOtherId(query, summary) {
  if (!/^[0-9a-fA-F]{32}$/.test(query)) return byRequestOrCorrelationId(query, summary);
  const traceId = query.toLowerCase();
  const docs = await api('by-trace-id', { traceId: traceId, limit: 50 });
  if (docs.length === 0) return byRequestOrCorrelationId(query, summary);
  summary.textContent = docs.length + ' scan' + (docs.length === 1 ? '' : 's') + ' in trace ' + traceId;
  return docs;
}

async function search(text) {
  const query = text.trim();
  const input = document.getElementById('search-input');
  input.value = query;
  if (!query) return;
  const results = document.getElementById('search-results');
  const summary = document.getElementById('search-summary');
  const tbody = results.querySelector('tbody');
  results.dataset.state = 'loading';
  const bySha = /^[0-9a-fA-F]{64}$/.test(query);
  let docs = [];
  let empty = bySha ? 'no scan of this content' : 'nothing found';
  try {
    if (bySha) {
      docs = await api('by-sha256', { sha256: query.toLowerCase(), limit: 50 });
      summary.textContent = docs.length + ' scan' + (docs.length === 1 ? '' : 's') + ' of SHA-256 ' + query.toLowerCase();
    } else {
      docs = await byTraceOrOtherId(query, summary);
    }
  } catch (e) {
    summary.textContent = e.storeUnreachable ? STORE_UNREACHABLE : 'Search failed: ' + e.message;
    empty = 'not searched: the history store did not answer';
  }
  fillTable(tbody, docs, empty);
  results.hidden = false;
  document.getElementById('search-clear').hidden = false;
  results.dataset.state = 'loaded';
}

function clearSearch() {
  document.getElementById('search-input').value = '';
  document.getElementById('search-results').hidden = true;
  document.getElementById('search-clear').hidden = true;
}

document.addEventListener('DOMContentLoaded', () => {
  document.getElementById('search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    search(document.getElementById('search-input').value);
  });
  document.getElementById('search-clear').addEventListener('click', clearSearch);
  document.getElementById('refresh').addEventListener('click', load);
  document.getElementById('range').addEventListener('change', load);
  load();
});
