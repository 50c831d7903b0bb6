// Focus mode: one case, or one change, filling the window, decided by key; after a
// decision it moves on to the next. The view (side by side, wipe, ...) and the zoom
// carry from one to the next. The keys list (?) works everywhere.
(function () {
  'use strict';
  var doc = document, PG = window.PopoverGoldens, el = PG.el, button = PG.button, data = PG.data;
  var keys = [
    ['a', 'accept (the actual image becomes the golden)'], ['x', 'keep the golden'], ['u', 'undo the decision'],
    ['j  n', 'next'], ['k  p', 'previous'], ['f', 'fit the images to the window'], ['1 \u2013 8', 'zoom: device pixels per image pixel'],
    ['+  \u2212', 'zoom in, out'], ['\u2190 \u2191 \u2192 \u2193', 'pan'], ['c  C', 'next, previous changed region'],
    ['s', 'side by side'], ['w', 'wipe'], ['o', 'onion skin'], ['b', 'blink'], ['h', 'heatmap over actual'],
    ['/', 'search IDs (outside focus mode)'], ['?', 'this list'], ['Esc', 'close']
  ];

  var dialog = el('div', 'focus', null, { id: 'focus', role: 'dialog', 'aria-modal': 'true', 'aria-label': 'focus mode', tabindex: '-1' });
  dialog.hidden = true;
  doc.body.appendChild(dialog);
  var keysDialog = el('div', 'keys-list', [
    el('h2', '', ['Keys']),
    el('dl', '', keys.map(function (k) { return el('div', '', [el('dt', '', [el('kbd', '', [k[0]])]), el('dd', '', [k[1]])]); })),
    button('Close', { 'data-keys-close': '' })
  ], { id: 'keys', role: 'dialog', 'aria-modal': 'true', 'aria-label': 'keys', tabindex: '-1' });
  keysDialog.hidden = true;
  doc.body.appendChild(keysDialog);

  var focus = { items: [], at: 0, kind: 'case', viewer: null, returnTo: null };

  function items(kind) {
    if (kind === 'change') {
      var shown = new Set(PG.shownCases().map(function (c) { return c.id; }));
      return data.changes.filter(function (ch) { return ch.members.some(function (i) { return shown.has(data.cases[i].id); }); });
    }
    return PG.shownCases().slice();
  }
  function decidedOf(item) {
    if (focus.kind === 'change') {
      var decidable = item.members.filter(function (i) { return data.cases[i].acceptable; });
      return decidable.length > 0 && decidable.every(function (i) { return PG.decision(data.cases[i].id); });
    }
    return !!PG.decision(item.id);
  }

  function open(kind, id) {
    focus.done = false;
    focus.kind = kind;
    focus.items = items(kind);
    if (!focus.items.length) return;
    var at = focus.items.findIndex(function (item) { return item.id === id; });
    focus.at = at >= 0 ? at : 0;
    if (dialog.hidden) focus.returnTo = doc.activeElement;
    dialog.hidden = false;
    doc.body.classList.add('focusing');
    show();
    dialog.focus();
  }
  function close() {
    dialog.hidden = true;
    dialog.textContent = '';
    focus.viewer = null;
    doc.body.classList.remove('focusing');
    if (focus.returnTo && focus.returnTo.isConnected) focus.returnTo.focus();
  }

  function progressText() {
    if (focus.kind === 'change') {
      var done = focus.items.filter(decidedOf).length;
      return done + ' of ' + PG.plural(focus.items.length, 'change') + ' decided';
    }
    var p = PG.progress();
    return p.decided + ' of ' + p.decidable + ' decided';
  }

  function show() {
    var item = focus.items[focus.at];
    var c = focus.kind === 'change' ? data.cases[item.representative] : item;
    var before = focus.viewer && focus.viewer.ports ? focus.viewer : null;
    var prefs = before ? { mode: before.state.mode, zoom: before.state.zoom,
                           at: { width: before.width, height: before.height, cx: before.state.cx, cy: before.state.cy } } : {};
    dialog.textContent = '';
    var title = focus.kind === 'change' ? item.explanation : c.id;
    var name = focus.kind === 'change' ? 'change ' + item.id : c.id;
    function decideButton(label, word, key, pressable) {
      var attributes = { 'data-focus-decide': word, 'aria-label': label + ' (' + key + ') ' + (focus.kind === 'change' ? 'of ' : '') + name };
      if (pressable) attributes['aria-pressed'] = 'false';
      return button(label + ' (' + key + ')', attributes);
    }
    var decidable = focus.kind === 'change' || c.acceptable;
    var decide = decidable
      ? el('span', 'decide', [
          decideButton(focus.kind === 'change' ? 'Accept all ' + item.members.length : 'Accept', 'accept', 'a', true),
          decideButton(focus.kind === 'change' ? 'Keep all' : 'Keep', 'keep', 'x', true),
          decideButton('Undo', 'undo', 'u', false)], { role: 'group', 'aria-label': 'decision for ' + name })
      : el('span', 'muted', ['nothing to decide']);
    var where = (focus.kind === 'change' ? 'Change ' : 'Case ') + (focus.at + 1) + ' of ' + focus.items.length;
    dialog.appendChild(el('div', 'focus-head', [
      el('div', 'focus-title', [
        PG.badge(c),
        el('h2', focus.kind === 'change' ? '' : 'mono', [title], { title: title }),
        el('span', 'decision', [focus.kind === 'change' ? PG.changeSummary(item) : PG.decisionText(c.id)])
      ]),
      el('div', 'focus-bar', [
        el('span', 'where', [where]), el('span', 'focus-progress', [progressText()], { 'aria-live': 'polite' }),
        decide,
        button('Previous (k)', { 'data-focus-step': '-1' }), button('Next (j)', { 'data-focus-step': '1' }),
        button('Keys (?)', { 'data-keys-open': '' }), button('Close (Esc)', { 'data-focus-close': '' })
      ]),
      el('p', 'focus-line muted', [focus.kind === 'change'
        ? 'Shown: ' + c.id + ' \u00b7 ' + c.headline
        : (c.explanation ? c.explanation + ' \u00b7 ' : '') + c.headline])
    ], focus.kind === 'change' ? null : { 'data-case': c.id }));
    focus.viewer = new PG.Viewer(c, { mode: prefs.mode, zoom: prefs.zoom, at: prefs.at, className: 'fill' });
    dialog.appendChild(focus.viewer.el);
    if (focus.kind === 'change' && focus.viewer.ports) focus.viewer.el.setAttribute('data-change', item.id);
    refresh();
  }
  function refresh() {
    if (dialog.hidden) return;
    var item = focus.items[focus.at];
    if (!item) return;
    var ids = idsOf(item);
    var busy = ids.some(PG.isPending);
    PG.all('[data-focus-decide]', dialog).forEach(function (b) {
      var d = b.getAttribute('data-focus-decide');
      if (d === 'undo') b.disabled = !ids.some(function (id) { return PG.decision(id); });
      else b.setAttribute('aria-pressed', ids.length > 0 && ids.every(function (id) { return PG.decision(id) === d; }) ? 'true' : 'false');
      b.classList.toggle('pending', busy);
      if (busy) b.setAttribute('aria-busy', 'true'); else b.removeAttribute('aria-busy');
    });
    var words = dialog.querySelector('.focus-title .decision');
    if (words) words.textContent = focus.kind === 'change' ? PG.changeSummary(item) : PG.decisionText(item.id);
    var progress = dialog.querySelector('.focus-progress');
    if (progress) progress.textContent = progressText();
  }
  PG.on('decisions', refresh);
  PG.on('pending', refresh);
  // The decidable cases of an item of the queue.
  function idsOf(item) {
    var cases = focus.kind === 'change' ? item.members.map(function (i) { return data.cases[i]; }) : [item];
    return cases.filter(function (c) { return c.acceptable; }).map(function (c) { return c.id; });
  }

  function step(by) {
    var next = focus.at + by;
    if (next >= focus.items.length && by > 0) { showDone(); return; }
    if (next < 0 || next >= focus.items.length) return;
    focus.at = next;
    show();
  }
  // Decides the item shown and, once the decision holds (served: once the server has
  // answered), moves on to the next one; after the last, the end of the queue. A key
  // pressed again while the request is out does nothing.
  function decideShown(word) {
    var item = focus.items[focus.at];
    if (!item || focus.done) return;
    var ids = idsOf(item);
    if (!ids.length || ids.some(PG.isPending)) return;
    PG.decide(ids, word === 'undo' ? null : word).then(function (held) {
      if (!held || word === 'undo' || dialog.hidden || focus.items[focus.at] !== item) return;
      step(1);
    });
  }

  // The end of the queue: what was decided, and the last step that makes it count.
  function showDone() {
    var p = PG.progress();
    focus.done = true;
    focus.viewer = null;
    dialog.textContent = '';
    var undecided = p.decidable - p.decided;
    var next = PG.data.cases.filter(function (c) { return c.acceptable && !PG.decision(c.id); })[0];
    var command = doc.querySelector('.review-command code');
    dialog.appendChild(el('div', 'focus-done', [
      el('h2', '', ['End of the queue']),
      el('p', '', [PG.plural(p.decided, 'case') + ' of ' + p.decidable + ' decided: ' + p.accepted + (PG.live ? ' accepted' : ' to accept') +
        ', ' + p.kept + ' kept, ' + undecided + ' undecided.']),
      PG.live ? el('p', '', ['The accepted goldens are written; nothing is left to export.'])
        : el('p', '', [p.accepted ? 'Nothing is written yet: export the approvals, then apply them with the command below.'
                                  : 'Nothing was accepted: there is nothing to export.']),
      PG.live ? null : button('Export approvals.json', { 'data-export': '', disabled: PG.data.cases.some(PG.exportable) ? null : '' }, 'primary'),
      PG.live || !command ? null : el('p', 'review-command', ['Then: ', el('code', '', [command.textContent])]),
      el('div', 'focus-done-actions', [
        next ? button('Go to the first undecided case', { 'data-focus-case': next.id }) : null,
        button('Close (Esc)', { 'data-focus-close': '' })])
    ], { role: 'region', 'aria-label': 'end of the queue' }));
    var first = dialog.querySelector('button');
    if (first) first.focus();
  }

  function showKeys(on) {
    keysDialog.hidden = !on;
    if (on) keysDialog.focus();
    else if (!dialog.hidden) dialog.focus();
  }

  doc.addEventListener('click', function (event) {
    var b = event.target.closest('button');
    if (!b) return;
    if (b.hasAttribute('data-focus-case')) open('case', b.getAttribute('data-focus-case'));
    else if (b.hasAttribute('data-focus-change')) open('change', b.getAttribute('data-focus-change'));
    else if (b.id === 'focus-open') {
      // From the first case the filters show that is not decided yet.
      var first = PG.shownCases().filter(function (c) { return c.acceptable && !PG.decision(c.id); })[0];
      open('case', first ? first.id : null);
    }
    else if (b.hasAttribute('data-focus-close')) close();
    else if (b.hasAttribute('data-focus-step')) step(+b.getAttribute('data-focus-step'));
    else if (b.hasAttribute('data-focus-decide')) decideShown(b.getAttribute('data-focus-decide'));
    else if (b.hasAttribute('data-keys-open') || b.id === 'keys-open') showKeys(true);
    else if (b.hasAttribute('data-keys-close')) showKeys(false);
  });

  doc.addEventListener('keydown', function (event) {
    if (event.metaKey || event.ctrlKey || event.altKey) return;
    var typing = event.target.closest && event.target.closest('input[type="search"], input[type="text"], select, textarea');
    if (typing) return;
    if (!keysDialog.hidden) {
      if (event.key === 'Escape' || event.key === '?') { event.preventDefault(); showKeys(false); }
      return;
    }
    if (event.key === '?') { event.preventDefault(); showKeys(true); return; }
    if (dialog.hidden) return;
    var v = focus.viewer, key = event.key, handled = true;
    if (key === 'Escape') close();
    else if (key === 'a') decideShown('accept');
    else if (key === 'x') decideShown('keep');
    else if (key === 'u') decideShown('undo');
    else if (focus.done) handled = false;
    else if (key === 'j' || key === 'n') step(1);
    else if (key === 'k' || key === 'p') step(-1);
    else if (!v || !v.ports) handled = false;
    else if (key === 'f') v.setZoom('fit');
    else if (/^[1-8]$/.test(key)) v.setZoom(+key);
    else if (key === '+' || key === '=') v.stepZoom(1);
    else if (key === '-') v.stepZoom(-1);
    else if (key === 'c') v.stepRegion(1);
    else if (key === 'C') v.stepRegion(-1);
    else if (key === 's') v.setMode('side');
    else if (key === 'w') v.setMode('wipe');
    else if (key === 'o') v.setMode('onion');
    else if (key === 'b') v.setMode('blink');
    else if (key === 'h') v.setMode('overlay');
    else if (key === 'ArrowLeft') v.pan(60, 0);
    else if (key === 'ArrowRight') v.pan(-60, 0);
    else if (key === 'ArrowUp') v.pan(0, 60);
    else if (key === 'ArrowDown') v.pan(0, -60);
    else handled = false;
    if (handled) event.preventDefault();
  });

  // Tab stays inside the dialog while it is open.
  doc.addEventListener('focusin', function (event) {
    var open = !keysDialog.hidden ? keysDialog : !dialog.hidden ? dialog : null;
    if (open && !open.contains(event.target)) open.focus();
  });

  PG.focus = { open: open, close: close, state: focus };
})();
