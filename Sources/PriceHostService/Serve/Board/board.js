'use strict';
(() => {
const MAX_POINTS = 3600, MAX_STREAMS = 5, KEY = 'pricehost.token', RANGE_KEY = 'pricehost.range';
// The charts' ranges: how far back, the candles asked for (and their size in minutes), how often
// they are asked again (seconds), and the time axis' step (minutes).
const RANGES = {
  '15m': {name: '15 minutes', minutes: 15, interval: '1m', size: 1, every: 15, tick: 5},
  '1h': {name: '1 hour', minutes: 60, interval: '1m', size: 1, every: 30, tick: 15},
  '1d': {name: '1 day', minutes: 1440, interval: '15m', size: 15, every: 60, tick: 360},
};
const $ = (id) => document.getElementById(id);
const page = new URLSearchParams(location.search);
const interval = page.get('interval') || '5';
let token = null, range = '15m';
try { token = sessionStorage.getItem(KEY); } catch (e) { token = null; }
// Only the chart range is kept for good (localStorage): the token stays in the tab.
try { if (RANGES[localStorage.getItem(RANGE_KEY)]) range = localStorage.getItem(RANGE_KEY); } catch (e) { /* the default */ }
let run = 0, heartbeat = 15, currency = 'USD', chartNote = '';
// The status that refused candles (404: a server without them; 503: no quote store), 0 while they come;
// which range the in-memory history was asked for; the latest round of chart requests and its timer.
let candlesMissing = 0, historyRange = null, chartAsk = 0, chartTimer = 0;
let cards = new Map(), streams = [];

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text != null) node.textContent = text;
  return node;
}
function headers(extra) {
  const h = Object.assign({}, extra);
  if (token) h.Authorization = 'Bearer ' + token;
  return h;
}
function status(text, bad) {
  const s = $('status');
  if (s.textContent !== text) s.textContent = text;
  s.classList.toggle('bad', !!bad);
}

// Exact decimals: {n: BigInt, s: digits after the point}.
function dec(text) {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text || '');
  return m ? {n: BigInt(m[1] + m[2] + (m[3] || '')), s: (m[3] || '').length} : null;
}
function text(n, s) {
  const neg = n < 0n;
  let t = (neg ? -n : n).toString();
  if (s > 0) {
    t = t.padStart(s + 1, '0');
    t = (t.slice(0, -s) + '.' + t.slice(-s)).replace(/\.?0+$/, '');
  }
  return (neg && t !== '0' ? '-' : '') + t;
}
function summary(amounts) {
  const ds = amounts.map(dec).filter(Boolean);
  if (!ds.length) return null;
  const s = Math.max(...ds.map((d) => d.s));
  const v = ds.map((d) => d.n * 10n ** BigInt(s - d.s)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const k = v.length >> 1;
  const median = v.length % 2 ? v[k] * 10n : (v[k - 1] + v[k]) * 5n; // one more digit: a half stays exact
  const low = v[0], high = v[v.length - 1];
  let bps = '0';
  if (median !== 0n) {
    const den = median < 0n ? -median : median;
    const num = (high - low) * 10n * 10000n * 100n;
    let q = num / den;
    if (2n * (num % den) >= den) q += 1n;
    bps = text(median < 0n ? -q : q, 2);
  }
  return {median: text(median, s + 1), min: text(low, s), max: text(high, s), bps, count: v.length};
}

function age(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return s + ' s';
  const m = Math.round(s / 60);
  if (m < 120) return m + ' min';
  const h = Math.round(m / 60);
  return h < 48 ? h + ' h' : Math.round(h / 24) + ' d';
}
function staleness(p, now) {
  if (p.amount == null) return '';
  if (p.maxAge != null && now - p.time > p.maxAge * 1000) return 'older than maxAgeSeconds (' + p.maxAge + ' s)';
  if (p.stream && now - p.seen > (p.staleAfter + p.fallback) * 1000) return 'no update for more than staleAfterSeconds (' + p.staleAfter + ' s) plus fallbackIntervalSeconds (' + p.fallback + ' s)';
  return '';
}

function card(asset, index) {
  const id = 'a' + index;
  const section = el('section', {class: 'card', 'data-asset': asset.asset, 'aria-labelledby': id + 'h'});
  const h = el('h2', {id: id + 'h'}, asset.asset + ' ');
  h.append(el('span', {class: 'pair'}, 'in ' + currency));
  section.append(h);
  const c = {asset: asset.asset, providers: new Map(), section, id, dirty: true};
  if (asset.error) {
    const failures = el('div', {class: 'failures'});
    failures.append(el('p', {}, asset.error));
    section.append(failures);
    cards.set(asset.asset, c);
    return section;
  }
  c.big = el('p', {class: 'big'});
  c.price = el('span', {class: 'amount', 'data-role': 'price'}, '—');
  c.big.append(c.price, ' ', el('span', {class: 'cur'}, currency));
  c.basis = el('p', {class: 'basis', 'data-role': 'basis'}, 'waiting for a price');
  c.chart = chart.make(id);
  c.candles = null;
  c.stats = el('dl', {class: 'stats', 'data-role': 'stats', hidden: ''});
  const wrap = el('div', {class: 'wrap'});
  const table = el('table');
  table.append(el('caption', {class: 'sr'}, asset.asset + ' by provider'));
  const head = el('tr');
  for (const name of ['Provider', 'Price', 'Source', 'Age']) head.append(el('th', {scope: 'col'}, name));
  const thead = el('thead');
  thead.append(head);
  table.append(thead);
  const body = el('tbody');
  table.append(body);
  wrap.append(table);
  c.failures = el('div', {class: 'failures', 'aria-live': 'polite'});
  c.note = el('p', {class: 'note', hidden: ''});
  for (const p of asset.providers) {
    const row = el('tr', {'data-provider': p.name, 'data-state': 'waiting'});
    const cells = {name: el('th', {scope: 'row'}, p.name), amount: el('td', {class: 'num', 'data-role': 'amount'}, '—'),
      source: el('td', {'data-role': 'source'}, p.stream ? 'stream' : 'REST'), age: el('td', {'data-role': 'age'})};
    cells.ageText = el('span', {class: 'age'}, '—');
    cells.age.append(cells.ageText);
    row.append(cells.name, cells.amount, cells.source, cells.age);
    body.append(row);
    c.providers.set(p.name, {name: p.name, stream: !!p.stream, maxAge: p.maxAgeSeconds ?? null,
      staleAfter: p.staleAfterSeconds ?? 5, fallback: p.fallbackIntervalSeconds ?? 2,
      amount: null, time: 0, seen: 0, source: '', error: '', points: [], row, cells, failure: null});
  }
  section.append(c.big, c.basis, c.chart.node, c.stats, wrap, c.failures, c.note);
  cards.set(asset.asset, c);
  return section;
}

function render(c, now, redraw) {
  if (!c.price) return;
  const fresh = [], all = [];
  for (const p of c.providers.values()) {
    const why = p.amount == null ? '' : staleness(p, now);
    const state = p.amount == null ? 'waiting' : why ? 'stale' : 'fresh';
    // A provider whose last word was an error is not counted fresh: its price is not confirmed.
    if (p.amount != null) { all.push(p.amount); if (!why && !p.error) fresh.push(p.amount); }
    const cells = p.cells;
    if (p.row.dataset.state !== state) p.row.dataset.state = state;
    p.row.classList.toggle('stale', state === 'stale');
    p.row.classList.toggle('failing', !!p.error);
    if (p.amount != null) {
      cells.amount.textContent = p.amount;
      cells.source.textContent = p.source;
      const label = age(now - p.time) + (why ? ' · stale' : '');
      if (cells.ageText.textContent !== label) cells.ageText.textContent = label;
      cells.ageText.title = why ? 'Stale: ' + why : 'Quoted at ' + new Date(p.time).toISOString();
    }
    if (p.error && !p.failure) {
      p.failure = el('p', {'data-provider': p.name});
      c.failures.append(p.failure);
    }
    if (p.failure) {
      if (!p.error) { p.failure.remove(); p.failure = null; }
      else p.failure.textContent = p.name + ' is failing: ' + p.error;
    }
  }
  const used = fresh.length ? fresh : all;
  const sum = summary(used);
  const stale = !fresh.length && all.length > 0;
  c.price.textContent = sum ? sum.median : '—';
  c.basis.classList.toggle('stale', stale);
  c.basis.textContent = !sum ? 'waiting for a price'
    : (sum.count > 1 ? 'median of ' + sum.count + ' providers' : 'from ' + [...c.providers.values()].find((p) => p.amount === used[0]).name)
      + (stale ? ' · stale: no provider is fresh' : '');
  c.section.dataset.state = !sum ? 'waiting' : stale ? 'stale' : 'fresh';
  c.stats.hidden = !(sum && all.length > 1);
  if (sum && all.length > 1) {
    c.stats.replaceChildren();
    for (const [k, v] of [['median', sum.median], ['min', sum.min], ['max', sum.max], ['spread', sum.bps + ' bps']]) {
      const d = el('div');
      d.append(el('dt', {}, k), el('dd', {'data-role': k}, v));
      c.stats.append(d);
    }
  }
  // Only a fresh price joins the chart now: the store files a quote under its own time, so a stale
  // one is in the candles already (or long before the range), not in the current candle.
  if (sum && !stale && c.fresh && c.candles) fold(c, sum.median, now);
  c.fresh = false;
  if (redraw && c.dirty) { draw(c, now); c.dirty = false; c.drawn = now; }
}

// The card's chart over the range, up to now: its candles, or without them each provider's prices
// (the first line solid, the others dashed). The scale's labels are the exact highest and lowest text.
function draw(c, now) {
  const r = RANGES[range], from = now - r.minutes * 60000;
  const spec = {from, to: now, step: r.tick * 60000, lines: [], band: [], empty: 'no data'};
  let highs, lows, last, what;
  if (c.candles) {
    const kept = c.candles.filter((k) => k.t + k.size > from);
    const end = (k) => Math.min(k.t + k.size, now); // a close is the price at its candle's end
    spec.lines.push(kept.map((k) => ({t: end(k), v: Number(k.close)})));
    spec.band = kept.map((k) => ({t: end(k), hi: Number(k.high), lo: Number(k.low)}));
    highs = kept.map((k) => k.high); lows = kept.map((k) => k.low);
    last = kept.length && kept[kept.length - 1].close;
    what = kept.length + ' candles of ' + r.size + ' min';
  } else {
    for (const p of c.providers.values()) {
      while (p.points.length && p.points[0].t < from) p.points.shift();
      const line = p.points.filter((q) => Number.isFinite(q.v));
      if (line.length) spec.lines.push(line);
    }
    const all = [...c.providers.values()].flatMap((p) => p.points).sort((a, b) => a.t - b.t);
    highs = lows = all.map((q) => q.a);
    last = all.length && all[all.length - 1].a;
    what = all.length + ' prices';
    spec.empty = 'no data yet: the chart fills in as prices arrive';
  }
  const top = summary(highs), bottom = summary(lows);
  const name = c.asset + ' in ' + currency + ', last ' + r.name;
  if (top) { spec.high = top.max; spec.low = bottom.min; }
  const day = r.minutes > 60;
  spec.title = !top ? name + ': no data'
    : name + ' (' + what + ', ' + chart.time(from, day) + ' to ' + chart.time(now, day) + ' UTC): last ' + last + ', low ' + spec.low + ', high ' + spec.high;
  chart.draw(c.chart, spec);
}

// A live price joins the last candle, or starts the next one, until the next round brings the server's.
function fold(c, amount, now) {
  const size = RANGES[range].size * 60000, t = Math.floor(now / size) * size;
  const last = c.candles[c.candles.length - 1];
  if (last && last.t === t && last.size === size) {
    const both = summary([last.high, last.low, amount]);
    Object.assign(last, {high: both.max, low: both.min, close: amount});
  } else if (!last || last.t < t) {
    c.candles.push({t, size, open: amount, high: amount, low: amount, close: amount});
  }
  c.dirty = true;
}

function take(c, provider, quote) {
  const p = c.providers.get(provider);
  if (!p) return;
  const now = Date.now();
  p.amount = quote.amount;
  p.time = Date.parse(quote.timestamp) || now;
  p.seen = now;
  p.source = quote.source === 'stream' ? 'stream' : 'REST';
  p.error = '';
  const at = Date.parse(quote.receivedAt || '') || now;
  const lastPoint = p.points[p.points.length - 1];
  if (!lastPoint || at >= lastPoint.t) p.points.push({t: at, v: Number(quote.amount), a: quote.amount});
  if (p.points.length > MAX_POINTS) p.points.splice(0, p.points.length - MAX_POINTS);
  c.fresh = true;
  c.dirty = true;
}

function onEvent(provider, type, data) {
  let value;
  try { value = JSON.parse(data); } catch (e) { return; }
  if (!value || typeof value !== 'object') return;
  const c = cards.get(value.asset);
  if (type === 'error') {
    if (!c) { status('The stream of ' + provider + ' said: ' + String(value.error), true); return; }
    const p = c.providers.get(provider);
    if (p) p.error = String(value.error);
  } else if (c && typeof value.amount === 'string') {
    take(c, value.provider || provider, value);
  }
  if (c) render(c, Date.now(), false);
}

// One stream per provider, for the assets whose route names it; fetch(), so that the token
// goes in a header; resumed with Last-Event-ID after a drop, as a browser's event source would.
function follow(provider, assets, mine) {
  const s = {provider, lastId: null, retry: 1000, lastByte: Date.now(), controller: null, live: false, problem: ''};
  streams.push(s);
  const query = new URLSearchParams({asset: assets.join(','), provider, currency, interval});
  async function loop() {
    if (mine !== run) return;
    s.controller = new AbortController();
    try {
      const h = headers({Accept: 'text/event-stream'});
      if (s.lastId) h['Last-Event-ID'] = s.lastId;
      const response = await fetch('/v1/stream?' + query, {headers: h, cache: 'no-store', signal: s.controller.signal});
      if (response.status === 401) { askForToken('The token was refused.'); return; }
      if (!response.ok) {
        let why = 'HTTP ' + response.status;
        try { why += ': ' + (await response.json()).error; } catch (e) { /* not JSON */ }
        throw new Error(why);
      }
      s.live = true; s.problem = ''; s.retry = 1000; s.lastByte = Date.now();
      overall();
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const {value, done} = await reader.read();
        if (done || mine !== run) break;
        s.lastByte = Date.now();
        buffer += decoder.decode(value, {stream: true}).replace(/\r\n?/g, '\n');
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let type = 'message', data = [], id = null;
          for (const line of block.split('\n')) {
            if (!line || line[0] === ':') continue;
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const rest = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'data') data.push(rest);
            else if (field === 'event') type = rest;
            else if (field === 'id') id = rest;
            else if (field === 'retry' && /^\d+$/.test(rest)) s.retry = Math.min(Number(rest), 30000);
          }
          if (id !== null) s.lastId = id;
          if (data.length) onEvent(provider, type, data.join('\n'));
        }
        if (buffer.length > 1 << 20) throw new Error('an event larger than 1 MiB');
      }
      s.problem = 'the stream ended';
    } catch (e) {
      s.problem = e && e.name === 'AbortError' ? 'no heartbeat' : String(e && e.message || e);
    }
    s.live = false;
    if (mine !== run) return;
    overall();
    const wait = s.retry;
    s.retry = Math.min(s.retry * 2, 15000);
    setTimeout(loop, wait);
  }
  loop();
}

function overall() {
  const down = streams.filter((s) => !s.live);
  if (!streams.length) return;
  if (!down.length) status('Live: ' + streams.length + (streams.length > 1 ? ' streams' : ' stream') + ', polled every ' + interval + ' s unless streamed' + chartNote);
  else status('Reconnecting ' + down.map((s) => s.provider + (s.problem ? ' (' + s.problem + ')' : '')).join(', ') + '…', true);
}

// GET path?query with the token and a 5 s limit: {status, body}, status 0 when no answer came,
// body null unless the answer was 200.
async function getJSON(path, query) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 5000);
  try {
    const response = await fetch(path + '?' + query, {headers: headers(), cache: 'no-store', signal: controller.signal});
    return {status: response.status, body: response.ok ? await response.json() : null};
  } catch (e) {
    return {status: 0, body: null};
  } finally {
    clearTimeout(timer);
  }
}

// One card's candles over the range, from its start rounded down to a whole candle: the median of
// its providers where the card shows a median, else its one provider's. 200, or the status that said no.
async function candles(c, isCurrent) {
  const r = RANGES[range], size = r.size * 60000;
  const from = Math.floor((Date.now() - r.minutes * 60000) / size) * size;
  const query = new URLSearchParams({asset: c.asset, currency});
  if (c.providers.size > 1) query.set('aggregate', 'median');
  else query.set('provider', [...c.providers.keys()][0]);
  query.set('interval', r.interval);
  query.set('from', new Date(from).toISOString().replace(/\.\d+Z$/, 'Z'));
  const {status, body} = await getJSON('/v1/candles', query);
  if (status !== 200 || !isCurrent()) return status;
  if (!Array.isArray(body)) return 0;
  c.candles = body.map((k) => ({t: Date.parse(k.start), size, open: k.open, high: k.high, low: k.low, close: k.close}))
    .filter((k) => Number.isFinite(k.t) && dec(k.high) && dec(k.low) && dec(k.close));
  c.dirty = true;
  return 200;
}

// One provider's prices of one asset that the server keeps in memory (the range, at most its last hour):
// 200, or the status that said no.
async function history(c, p, isCurrent) {
  const minutes = String(Math.min(60, RANGES[range].minutes));
  const {status, body} = await getJSON('/v1/history', new URLSearchParams({asset: c.asset, currency, provider: p.name, minutes}));
  if (status !== 200 || !isCurrent()) return status;
  if (!body || !Array.isArray(body.points)) return 0;
  for (const point of body.points) {
    const t = Date.parse(point.timestamp);
    if ((point.provider || p.name) !== p.name || !Number.isFinite(t) || typeof point.amount !== 'string') continue;
    p.points.push({t, v: Number(point.amount), a: point.amount});
  }
  p.points.sort((x, y) => x.t - y.t);
  if (p.points.length > MAX_POINTS) p.points.splice(0, p.points.length - MAX_POINTS);
  c.dirty = true;
  return 200;
}

// `ask` for each job, four at a time, until one answers a status of `stop`: the statuses that were not 200.
async function inFours(jobs, ask, stop, isCurrent) {
  const failed = new Set();
  for (let i = 0; i < jobs.length && isCurrent(); i += 4) {
    const codes = await Promise.all(jobs.slice(i, i + 4).map(ask));
    for (const code of codes) if (code !== 200) failed.add(code || 'no answer');
    if (stop.some((code) => failed.has(code))) break;
  }
  return failed;
}

// Every card's chart for the range: its candles. A server without them (404: an older serve; 503: no
// quote store) gets asked for the prices it keeps in memory instead, once per range; after a 404 it is
// not asked for candles again, after a 503 it is at each round, in case its store comes back.
async function charts(isCurrent) {
  const list = [...cards.values()].filter((c) => c.price && c.providers.size);
  if (candlesMissing !== 404) {
    const failed = await inFours(list, (c) => candles(c, isCurrent), [404, 503], isCurrent);
    if (!isCurrent()) return;
    candlesMissing = failed.has(404) ? 404 : failed.has(503) ? 503 : 0;
  }
  if (!candlesMissing) { chartNote = ''; historyRange = null; return; }
  if (historyRange === range) return;
  for (const c of list) {
    c.candles = null;
    c.dirty = true;
    for (const p of c.providers.values()) p.points = [];
  }
  const jobs = list.flatMap((c) => [...c.providers.values()].map((p) => [c, p]));
  const failed = await inFours(jobs, ([c, p]) => history(c, p, isCurrent), [404], isCurrent);
  if (!isCurrent()) return;
  historyRange = range;
  chartNote = '; no candles from this server (' + candlesMissing + '): '
    + (failed.size ? 'nor history (' + [...failed].join(', ') + '): the charts start now' : 'the charts show what it keeps in memory (at most an hour)');
}

// Asks for the charts now and again every `every` seconds of the range, until the board starts
// again or the range changes: a round's answers count only while it is the latest.
async function refresh(mine) {
  clearTimeout(chartTimer);
  const ask = ++chartAsk;
  const isCurrent = () => mine === run && ask === chartAsk;
  await charts(isCurrent);
  if (isCurrent()) chartTimer = setTimeout(() => refresh(mine), RANGES[range].every * 1000);
}

function askForToken(why) {
  run++;
  for (const s of streams) if (s.controller) s.controller.abort();
  streams = [];
  $('login-why').textContent = why + ' This server needs its token (serve.token) to show prices.';
  $('login').hidden = false;
  status('Waiting for the token', true);
  $('token').focus();
}

async function start() {
  const mine = ++run;
  for (const s of streams) if (s.controller) s.controller.abort();
  streams = [];
  $('forget').hidden = !token;
  const query = new URLSearchParams();
  for (const k of ['asset', 'currency']) if (page.get(k)) query.set(k, page.get(k));
  let config;
  try {
    const response = await fetch('/v1/board?' + query, {headers: headers(), cache: 'no-store'});
    if (response.status === 401) { askForToken(token ? 'The token was refused.' : ''); return; }
    config = await response.json();
    if (!response.ok) throw new Error(config.error || 'HTTP ' + response.status);
  } catch (e) {
    status('Cannot read the board: ' + (e && e.message || e) + '; trying again in 5 s', true);
    setTimeout(() => { if (mine === run) start(); }, 5000);
    return;
  }
  if (mine !== run) return;
  currency = config.currency;
  heartbeat = Number(config.heartbeatSeconds) || 15;
  cards = new Map();
  const main = $('board');
  main.replaceChildren(...config.assets.map(card));
  if (!config.assets.length) {
    main.append(el('p', {}, 'No assets to show: the config has no "assets" section. Name some: /?asset=BTC,ETH'));
    status('Nothing to show');
    return;
  }
  candlesMissing = 0;
  historyRange = null;
  status('Loading the charts…');
  await refresh(mine);
  if (mine !== run) return;
  const byProvider = new Map();
  for (const a of config.assets) for (const p of a.providers || []) {
    if (!byProvider.has(p.name)) byProvider.set(p.name, []);
    byProvider.get(p.name).push(a.asset);
  }
  let index = 0;
  for (const [provider, assets] of byProvider) {
    if (index++ < MAX_STREAMS) { follow(provider, assets, mine); continue; }
    for (const a of assets) {
      const c = cards.get(a);
      c.note.hidden = false;
      c.note.textContent = 'Not followed here: ' + provider + ' (a browser opens at most 6 connections to one server; open /?asset=' + a + ' for this asset alone).';
    }
  }
  for (const c of cards.values()) render(c, Date.now(), true);
}

$('login').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('token');
  token = input.value.trim() || null;
  input.value = '';
  try { if (token) sessionStorage.setItem(KEY, token); } catch (e) { /* private mode: this page's memory only */ }
  $('login').hidden = true;
  start();
});
function showRange() {
  for (const input of document.querySelectorAll('#range input')) input.checked = input.value === range;
}
$('range').addEventListener('change', (event) => {
  if (!RANGES[event.target.value]) return;
  range = event.target.value;
  try { localStorage.setItem(RANGE_KEY, range); } catch (e) { /* this page's memory only */ }
  for (const c of cards.values()) c.dirty = true;
  if (cards.size) refresh(run);
});
$('forget').addEventListener('click', () => {
  try { sessionStorage.removeItem(KEY); } catch (e) { /* nothing kept */ }
  token = null;
  start();
});
setInterval(() => {
  const now = Date.now();
  for (const s of streams) if (s.live && now - s.lastByte > (2 * heartbeat + 5) * 1000 && s.controller) s.controller.abort();
  for (const c of cards.values()) {
    if (now - (c.drawn || 0) > 5000) c.dirty = true;
    render(c, now, true);
  }
}, 1000);
showRange();
start();
})();
