'use strict';
// The board's charts: one small SVG per card, a line of prices over a light band (each candle's
// low to high), a time axis in UTC below and the price scale's top and bottom at the right.
// Floats only place points: every label is text the caller worked out exactly.
const chart = (() => {
const W = 360, H = 112, TOP = 4, BOTTOM = 92, CHAR = 6;
const DAY = new Intl.DateTimeFormat('en', {month: 'short', day: 'numeric', timeZone: 'UTC'});

function svg(tag, attrs, text) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text != null) node.textContent = text;
  return node;
}

// A chart to draw in, named in words by its <title> (its id: the card's id and 't').
function make(id) {
  const node = svg('svg', {class: 'chart', viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-labelledby': id + 't'});
  const title = svg('title', {id: id + 't'});
  node.append(title);
  return {node, title};
}

// A time in UTC: HH:MM, with the date in front when asked (`Nov 27 12:00`), or the date alone at midnight on the axis.
function time(t, withDate) {
  const hhmm = new Date(t).toISOString().slice(11, 16);
  return withDate ? DAY.format(t) + ' ' + hhmm : hhmm;
}
function ticks(from, to, step) {
  const out = [];
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) out.push({t, label: t % 86400000 ? time(t) : DAY.format(t)});
  return out;
}

// Draws {from, to, step, lines: [[{t, v}]], band: [{t, hi, lo}], high, low, title, empty} in `view`:
// `high` and `low` are the scale's labels (decimal text), `step` the time axis' tick in ms.
function draw(view, spec) {
  for (const node of [...view.node.children]) if (node !== view.title) node.remove();
  view.title.textContent = spec.title;
  const labels = [spec.high || '', spec.low || ''];
  const width = W - Math.max(3, ...labels.map((l) => l.length)) * CHAR - 8;
  const x = (t) => Math.min(width, Math.max(0, (t - spec.from) / (spec.to - spec.from) * width));
  view.node.append(svg('line', {class: 'axis', x1: 0, x2: width, y1: BOTTOM, y2: BOTTOM}));
  for (const tick of ticks(spec.from, spec.to, spec.step)) {
    const at = x(tick.t);
    view.node.append(svg('line', {class: 'grid', x1: at.toFixed(1), x2: at.toFixed(1), y1: TOP, y2: BOTTOM + 3}));
    const anchor = at < 16 ? 'start' : at > width - 16 ? 'end' : 'middle';
    view.node.append(svg('text', {x: at.toFixed(1), y: H - 6, 'text-anchor': anchor, 'data-role': 'time'}, tick.label));
  }
  view.node.append(svg('text', {x: W, y: H - 6, 'text-anchor': 'end', class: 'utc'}, 'UTC'));
  if (!spec.high) {
    view.node.append(svg('text', {x: (width / 2).toFixed(1), y: (TOP + BOTTOM) / 2 + 4, 'text-anchor': 'middle', class: 'empty'}, spec.empty));
    return;
  }
  const high = Number(spec.high), low = Number(spec.low), span = high - low;
  const y = (v) => (span > 0 ? BOTTOM - 2 - (v - low) / span * (BOTTOM - TOP - 4) : (TOP + BOTTOM) / 2).toFixed(1);
  if (spec.band.length) {
    // A candle alone gets a sliver of its own, so that its low to high still shows.
    const lone = spec.band[0], band = spec.band.length > 1 ? spec.band : [{...lone, t: lone.t - (spec.to - spec.from) / 100}, lone];
    const edge = band.map((b) => x(b.t).toFixed(1) + ',' + y(b.hi))
      .concat(band.slice().reverse().map((b) => x(b.t).toFixed(1) + ',' + y(b.lo)));
    view.node.append(svg('polygon', {class: 'band', points: edge.join(' ')}));
  }
  spec.lines.forEach((line, index) => {
    if (!line.length) return;
    const xy = line.map((q) => x(q.t).toFixed(1) + ',' + y(q.v));
    // One price alone still reads as a level: drawn on to the right edge.
    if (xy.length === 1) xy.push(width + ',' + y(line[0].v));
    view.node.append(svg('polyline', {class: index ? 'more' : 'first', points: xy.join(' ')}));
    const last = line[line.length - 1];
    view.node.append(svg('circle', {cx: x(last.t).toFixed(1), cy: y(last.v), r: 2.5}));
  });
  view.node.append(svg('text', {x: width + 6, y: TOP + 8, 'data-role': 'high'}, spec.high));
  view.node.append(svg('text', {x: width + 6, y: BOTTOM, 'data-role': 'low'}, spec.low));
}

return {make, draw, time};
})();
