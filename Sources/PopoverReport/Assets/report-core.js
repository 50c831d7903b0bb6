// Shared by the report's scripts (the six files as one inline script element, in the order
// ReportAssets joins them): the run's data, the decisions, what the browser keeps of them, and a
// few helpers. The data is the page's JSON block, read with JSON.parse; the scripts build
// DOM nodes and set text, never HTML from strings.
(function () {
  'use strict';
  var doc = document;
  doc.body.classList.remove('nojs');
  var block = doc.getElementById('report-data');
  var data = block ? JSON.parse(block.textContent) : null;
  if (!data) data = { run: { key: '' }, cases: [], changes: [], zooms: [], glyphs: {} };
  var byId = new Map();
  data.cases.forEach(function (c, i) {
    c.index = i;
    byId.set(c.id, c);
    // An image without its own src is named from the case's base (ReportData.Image).
    [['expected', 'expected'], ['actual', 'actual'], ['heatmap', 'heatmap'], ['thumb', 'thumbnail']].forEach(function (k) {
      if (c[k[0]] && !c[k[0]].src) c[k[0]].src = c.base + '.' + k[1] + '.png';
    });
  });
  data.changes.forEach(function (change) {
    change.members.forEach(function (i) { data.cases[i].changeData = change; });
  });
  var token = new URLSearchParams(location.search).get('token');
  // Served by `popover-goldens review`: Accept writes the golden through the server.
  var live = /^https?:$/.test(location.protocol) && !!token;

  // An element: `el('p', 'muted', ['text', child, null])`, attributes as a map.
  function el(tag, className, children, attributes) {
    var node = doc.createElement(tag);
    if (className) node.className = className;
    if (attributes) Object.keys(attributes).forEach(function (name) {
      if (attributes[name] !== null && attributes[name] !== undefined) node.setAttribute(name, attributes[name]);
    });
    (children || []).forEach(function (child) {
      if (child === null || child === undefined || child === false) return;
      node.appendChild(typeof child === 'string' ? doc.createTextNode(child) : child);
    });
    return node;
  }
  function button(label, attributes, className) {
    var b = el('button', className || '', [label], attributes);
    b.type = 'button';
    return b;
  }

  // The id a case's line has: as Escape.caseAnchor writes it, so links made by the
  // report and by people keep working.
  function anchor(id) {
    var out = '';
    var bytes = new TextEncoder().encode(id);
    for (var i = 0; i < bytes.length; i++) {
      var b = bytes[i], ch = String.fromCharCode(b);
      out += /[A-Za-z0-9\-._~\/@+]/.test(ch) ? ch : '%' + (b < 16 ? '0' : '') + b.toString(16).toUpperCase();
    }
    return 'c-' + out.replace(/^\/+/, '');
  }

  // What the browser keeps for this run: decisions and filters.
  var storeKey = 'popover-goldens report ' + data.run.key;
  function stored() {
    try { return JSON.parse(localStorage.getItem(storeKey) || '{}') || {}; } catch (e) { return {}; }
  }
  function store(part, value) {
    var state = stored();
    state[part] = value;
    try { localStorage.setItem(storeKey, JSON.stringify(state)); } catch (e) { /* private mode: not kept */ }
  }

  // Decisions: 'accept' (the actual image becomes the golden) or 'keep' (the golden
  // stays), by case ID. What the run says was accepted (summary.json) is decided and
  // accepted on every page, served or opened from disk; served live, an acceptance is
  // the server's, and only "keep" comes from the browser.
  var decisions = {};
  var saved = stored().decisions || {};
  Object.keys(saved).forEach(function (id) {
    var c = byId.get(id);
    if (!c || !c.acceptable) return;
    if (saved[id] === 'keep' || (!live && saved[id] === 'accept')) decisions[id] = saved[id];
  });
  data.cases.forEach(function (c) { if (c.accepted) decisions[c.id] = 'accept'; });

  var listeners = {};
  var PG = window.PopoverGoldens = {
    data: data, live: live, token: token, el: el, button: button, anchor: anchor,
    caseById: function (id) { return byId.get(id); },
    all: function (selector, root) { return Array.prototype.slice.call((root || doc).querySelectorAll(selector)); },
    on: function (name, fn) { (listeners[name] = listeners[name] || []).push(fn); },
    emit: function (name, detail) { (listeners[name] || []).forEach(function (fn) { fn(detail); }); },
    stored: stored, store: store,
    decision: function (id) { return decisions[id] || null; },
    // Sets (or with null clears) the decision of each case; says who changed.
    setDecision: function (ids, decision) {
      var changed = [];
      ids.forEach(function (id) {
        var c = byId.get(id);
        if (!c || !c.acceptable || (decisions[id] || null) === decision) return;
        if (decision) decisions[id] = decision; else delete decisions[id];
        changed.push(id);
      });
      if (!changed.length) return;
      store('decisions', decisions);
      PG.emit('decisions', changed);
    },
    // How far the review has come, over the cases one can decide.
    progress: function () {
      var p = { decidable: 0, decided: 0, accepted: 0, kept: 0 };
      data.cases.forEach(function (c) {
        if (!c.acceptable) return;
        p.decidable++;
        if (decisions[c.id]) p.decided++;
        if (decisions[c.id] === 'accept') p.accepted++;
        if (decisions[c.id] === 'keep') p.kept++;
      });
      return p;
    },
    plural: function (n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); },
    barHeight: function () { var bar = doc.getElementById('bar'); return bar ? bar.offsetHeight : 0; }
  };
  // What a case scrolled to must clear: the sticky bar's height (it wraps on narrow windows).
  var bar = doc.getElementById('bar');
  if (bar) new ResizeObserver(function () {
    doc.documentElement.style.setProperty('--bar-h', bar.offsetHeight + 'px');
  }).observe(bar);
})();
