// The changes and the cases, drawn from the data only where the screen is: each list
// holds one slot per item, of a fixed height, and a slot gets its content when it comes
// near the screen. Filters (status, skin, direction, scale, ID) choose the slots, dim the
// overview's cells and hide passing lines; they are kept in the address (#...) and in
// the browser's storage.
(function () {
  'use strict';
  var doc = document, PG = window.PopoverGoldens, el = PG.el, button = PG.button, all = PG.all;
  var data = PG.data;

  // ---- Filters

  var chips = all('[data-status-chip]');
  var skinSelect = doc.getElementById('f-skin'), dirSelect = doc.getElementById('f-dir');
  var scaleSelect = doc.getElementById('f-scale'), search = doc.getElementById('f-q');
  var filters = { off: [], skin: '', dir: '', scale: '', q: '' };

  function idMatcher(text) {
    text = text.trim().toLowerCase();
    if (!text) return null;
    if (!/[*?]/.test(text)) return function (id) { return id.toLowerCase().indexOf(text) >= 0; };
    // Like the command line's --filter: * any run of characters, ? one.
    var regex = new RegExp(text.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.'));
    return function (id) { return regex.test(id.toLowerCase()); };
  }
  function active() {
    return filters.off.length > 0 || !!(filters.skin || filters.dir || filters.scale || filters.q.trim());
  }
  function matcher() {
    var q = idMatcher(filters.q), off = filters.off;
    return function (item) {
      return off.indexOf(item.status) < 0 && (!filters.skin || item.skin === filters.skin) &&
        (!filters.dir || item.dir === filters.dir) && (!filters.scale || String(item.scale) === filters.scale) &&
        (!q || q(item.id));
    };
  }
  function showFilters() {
    chips.forEach(function (chip) {
      chip.setAttribute('aria-pressed', filters.off.indexOf(chip.getAttribute('data-status-chip')) < 0 ? 'true' : 'false');
    });
    if (skinSelect) skinSelect.value = filters.skin;
    if (dirSelect) dirSelect.value = filters.dir;
    if (scaleSelect) scaleSelect.value = filters.scale;
    if (search && search.value !== filters.q) search.value = filters.q;
  }
  function readFilters() {
    filters.skin = skinSelect ? skinSelect.value : '';
    filters.dir = dirSelect ? dirSelect.value : '';
    filters.scale = scaleSelect ? scaleSelect.value : '';
    filters.q = search ? search.value : '';
  }
  // The address says the filters, so a link shows what its sender saw.
  function hashText() {
    if (!active()) return '';
    var parts = [];
    if (filters.off.length) parts.push('hide=' + filters.off.map(encodeURIComponent).join(','));
    ['skin', 'dir', 'scale', 'q'].forEach(function (name) {
      if (filters[name]) parts.push(name + '=' + encodeURIComponent(filters[name]));
    });
    return '#' + parts.join('&');
  }
  function filtersFromHash(hash) {
    if (!/^#(hide|skin|dir|scale|q)=/.test(hash)) return null;
    var f = { off: [], skin: '', dir: '', scale: '', q: '' };
    hash.slice(1).split('&').forEach(function (part) {
      var at = part.indexOf('='), name = part.slice(0, at), value = '';
      try { value = decodeURIComponent(part.slice(at + 1)); } catch (e) { return; }
      if (name === 'hide') f.off = value.split(',').filter(Boolean);
      else if (name in f) f[name] = value;
    });
    return f;
  }

  // ---- Matrix cells and passing lines

  var cells = all('table.matrix td.c').map(function (td) {
    var id = td.getAttribute('data-case'), c = PG.caseById(id);
    var status = (/\bs-(\w+)/.exec(td.className) || [])[1] || '';
    var row = td.parentNode;
    return { el: td, id: id, status: status, skin: td.closest('[data-skin]').getAttribute('data-skin'),
             dir: row.getAttribute('data-dir'), scale: row.getAttribute('data-scale'), c: c };
  });
  var passedLines = all('.passed-list li').map(function (li) {
    return { el: li, id: li.querySelector('code').textContent, status: 'passed',
             skin: li.closest('[data-skin]').getAttribute('data-skin'),
             dir: li.getAttribute('data-dir'), scale: li.getAttribute('data-scale') };
  });

  // ---- Lists drawn near the screen

  var near = new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) {
      var slot = entry.target;
      if (entry.isIntersecting && !slot.drawn) { slot.drawn = true; slot.draw(slot); near.unobserve(slot); }
    });
  }, { rootMargin: '800px 0px' });

  function badge(c) {
    return el('span', 'badge s-' + c.status, [el('span', 'glyph', [glyphs[c.status] || ''], { 'aria-hidden': 'true' }), c.word]);
  }
  var glyphs = data.glyphs || {};
  PG.badge = badge;

  // Accept, Keep and Undo for one case: one control per meaning, none toggles; each
  // names its case for a screen reader, since a list holds hundreds of them.
  function decideButtons(c) {
    if (!c.acceptable) return null;
    return el('span', 'decide', [
      button('Accept', { 'data-decide': 'accept', 'data-for': c.id, 'aria-pressed': 'false', 'aria-label': 'Accept ' + c.id,
                         title: PG.live ? 'write the actual image as the golden now' : 'take the actual image as the golden (exported as approvals.json)' }),
      button('Keep', { 'data-decide': 'keep', 'data-for': c.id, 'aria-pressed': 'false', 'aria-label': 'Keep ' + c.id,
                       title: 'keep the golden: the change is a bug' }),
      button('Undo', { 'data-decide': 'undo', 'data-for': c.id, 'aria-label': 'Undo the decision on ' + c.id,
                       title: PG.live ? 'put the golden back as it was' : 'leave the case undecided' })
    ], { role: 'group', 'aria-label': 'decision for ' + c.id });
  }
  PG.decideButtons = decideButtons;

  // An ID that may be cut: the start gives way first (with an ellipsis), the end, which
  // tells a change's cases apart (offset, scale), stays.
  var keptEnd = 16;
  function idText(id, className) {
    var at = Math.max(0, id.length - keptEnd);
    return el('span', 'idcut ' + (className || ''), [
      at ? el('span', 'id-head', [id.slice(0, at)]) : null, el('span', 'id-tail', [id.slice(at)])], { title: id });
  }
  PG.idText = idText;

  function decisionText(id) {
    var d = PG.decision(id);
    return d === 'accept' ? (PG.live ? 'accepted' : 'to accept') : d === 'keep' ? 'golden kept' : '';
  }
  PG.decisionText = decisionText;

  function caseBody(c) {
    var viewer = new PG.Viewer(c);
    var stats = el('dl', 'stats', c.stats.map(function (s) {
      return el('div', '', [el('dt', '', [s[0]]), el('dd', s[2] || '', [s[1]])]);
    }));
    var facts = el('dl', 'drawn', c.facts.map(function (f) {
      return el('div', f[0] === 'golden' ? 'golden' : '', [el('dt', '', [f[0]]), el('dd', f[0] === 'golden' ? 'mono' : '', [f[1]])]);
    }));
    return el('div', 'case-body', [
      el('p', 'message', [c.message]),
      c.explanation ? el('p', 'explanation', [el('b', '', ['Why: ']), c.explanation]) : null,
      c.stats.length ? stats : null, viewer.el, facts]);
  }
  PG.caseBody = caseBody;

  function drawCase(slot) {
    var c = slot.item;
    var open = button('', { 'aria-expanded': 'false', 'aria-controls': slot.id + '-body', title: 'show or hide the images' }, 'case-open');
    open.appendChild(badge(c));
    open.appendChild(c.thumb ? el('img', 'thumb', null, { src: c.thumb.src, alt: '', width: String(c.thumb.w), height: String(c.thumb.h) })
                             : el('span', 'thumb none'));
    open.appendChild(el('span', 'cid', [c.id]));
    open.appendChild(el('span', 'headline', [c.headline]));
    var article = el('article', 'case s-' + c.status, [
      el('div', 'case-line', [open, el('span', 'decision', [decisionText(c.id)]), decideButtons(c),
        button('Focus', { 'data-focus-case': c.id, title: 'this case filling the window', 'aria-label': 'Focus on ' + c.id }, 'to-focus')])
    ], { 'data-case': c.id });
    slot.appendChild(article);
    PG.showDecision(slot);
  }
  function toggleCase(slot, open) {
    var article = slot.querySelector('article.case'), head = slot.querySelector('.case-open');
    if (!article) return;
    open = open === undefined ? head.getAttribute('aria-expanded') !== 'true' : open;
    head.setAttribute('aria-expanded', open ? 'true' : 'false');
    var body = article.querySelector('.case-body');
    if (open && !body) {
      body = caseBody(slot.item);
      body.id = slot.id + '-body';
      article.appendChild(body);
    } else if (!open && body) body.remove();
    slot.classList.toggle('grown', open);
  }
  PG.toggleCase = toggleCase;

  // The case list is made of blocks of lines; a block holds only its height until it
  // comes near the screen, then gets its lines. So a list of 2080 cases starts as a few
  // dozen elements, and a filter change remakes only those.
  var caseList = doc.getElementById('case-list');
  var blockSize = 40;
  var shownCases = [];
  var blocks = [];
  function drawBlock(block) {
    var fragment = doc.createDocumentFragment();
    block.items.forEach(function (c) {
      var slot = el('div', 'case-slot', null, { id: PG.anchor(c.id), role: 'listitem', 'data-slot-case': c.id });
      slot.item = c;
      slot.drawn = true;
      fragment.appendChild(slot);
      drawCase(slot);
    });
    block.appendChild(fragment);
    block.classList.add('drawn');
  }
  function fillCases(items) {
    shownCases = items;
    if (!caseList) return;
    blocks.forEach(function (block) { near.unobserve(block); });
    caseList.textContent = '';
    caseList.style.setProperty('--n', items.length);
    blocks = [];
    for (var start = 0; start < items.length; start += blockSize) {
      var block = el('div', 'case-block', null, { role: 'presentation' });
      block.items = items.slice(start, start + blockSize);
      block.style.setProperty('--n', block.items.length);
      block.draw = drawBlock;
      blocks.push(block);
      caseList.appendChild(block);
      near.observe(block);
    }
  }
  PG.shownCases = function () { return shownCases; };
  // The line of a case the filters show, drawn now if its block was not yet.
  PG.slotOf = function (id) {
    var at = shownCases.findIndex(function (c) { return c.id === id; });
    if (at < 0) return null;
    var block = blocks[Math.floor(at / blockSize)];
    if (!block.drawn) { block.drawn = true; near.unobserve(block); drawBlock(block); }
    return doc.getElementById(PG.anchor(id));
  };

  // ---- Changes

  var changesList = doc.getElementById('changes-list');
  var allChanges = false;
  function changeSummary(change) {
    var accepted = 0, kept = 0;
    change.members.forEach(function (i) {
      var d = PG.decision(data.cases[i].id);
      if (d === 'accept') accepted++; else if (d === 'keep') kept++;
    });
    var parts = [change.kind, PG.plural(change.members.length, 'case')];
    if (accepted) parts.push(accepted + (PG.live ? ' accepted' : ' to accept'));
    if (kept) parts.push(kept + ' kept');
    return parts.join(' \u00b7 ');
  }
  PG.changeSummary = changeSummary;

  function showRepresentative(card, c) {
    var rep = card.querySelector('.rep');
    rep.textContent = '';
    rep.setAttribute('data-case', c.id);
    rep.appendChild(el('div', 'rep-line', [badge(c), el('span', 'cid', [c.id]),
      el('span', 'decision', [decisionText(c.id)]), decideButtons(c),
      el('span', 'muted headline', [c.headline])]));
    rep.appendChild(new PG.Viewer(c).el);
    PG.showDecision(rep);
  }
  function memberTiles(change, details) {
    var grid = details.querySelector('.member-grid');
    var start = grid.children.length, end = Math.min(change.members.length, start + 60);
    for (var k = start; k < end; k++) {
      var c = data.cases[change.members[k]];
      var tile = button('', { 'data-member': c.id, title: c.id + ' \u2014 ' + c.headline }, 'member');
      tile.appendChild(c.thumb ? el('img', '', null, { src: c.thumb.src, alt: '', width: String(c.thumb.w), height: String(c.thumb.h), loading: 'lazy' })
                               : el('span', 'thumb none'));
      tile.setAttribute('aria-label', 'show ' + c.id + ' above');
      tile.appendChild(idText(c.id, 'member-id'));
      tile.appendChild(el('span', 'decision', [decisionText(c.id)]));
      tile.setAttribute('data-decision', PG.decision(c.id) || '');
      grid.appendChild(tile);
    }
    var more = details.querySelector('.members-more');
    more.hidden = end >= change.members.length;
    more.textContent = 'Show ' + Math.min(60, change.members.length - end) + ' more of ' + change.members.length;
  }
  // Accept all, Keep all and Undo for a change, each naming it.
  function changeButtons(change, keys) {
    var n = change.members.length, k = keys ? function (key) { return ' (' + key + ')'; } : function () { return ''; };
    return el('span', 'decide', [
      button('Accept all ' + n + k('a'), { 'data-decide-change': 'accept', 'data-change': change.id, 'aria-pressed': 'false',
             'aria-label': 'Accept all ' + n + k('a') + ' of change ' + change.id, title: 'take every case of this change as its new golden' }),
      button('Keep all' + k('x'), { 'data-decide-change': 'keep', 'data-change': change.id, 'aria-pressed': 'false',
             'aria-label': 'Keep all' + k('x') + ' of change ' + change.id, title: 'keep every golden of this change' }),
      button('Undo' + k('u'), { 'data-decide-change': 'undo', 'data-change': change.id,
             'aria-label': 'Undo' + k('u') + ' the decisions on change ' + change.id, title: 'leave every case of this change undecided' })
    ], { role: 'group', 'aria-label': 'decision for change ' + change.id });
  }
  PG.changeButtons = changeButtons;

  function drawChange(slot) {
    var change = slot.item;
    var card = el('article', 'change k-' + change.kind, [
      el('div', 'change-head', [
        el('h3', '', [change.explanation], { title: change.explanation }),
        el('p', 'change-meta muted', [changeSummary(change)]),
        changeButtons(change),
        button('Focus', { 'data-focus-change': change.id, title: 'this change filling the window',
                          'aria-label': 'Focus on change ' + change.id }, 'to-focus')
      ]),
      el('div', 'rep'),
      el('details', 'members', [
        el('summary', '', ['Its ' + PG.plural(change.members.length, 'case') + ' (choose one to show it above)']),
        el('div', 'member-grid'),
        button('', { 'data-members-more': change.id }, 'members-more')
      ])
    ], { 'data-change': change.id });
    slot.appendChild(card);
    showRepresentative(card, data.cases[change.representative]);
    PG.showChange(slot);
  }
  // The change index (in the first HTML): rows of the changes the filters leave out are
  // hidden; a row's Copy button copies its change's command, where the run records one.
  var indexRows = all('table.change-index tbody tr');
  indexRows.forEach(function (row) {
    var change = data.changes.filter(function (ch) { return ch.id === row.getAttribute('data-change'); })[0];
    var idCell = row.querySelector('td.mono');
    if (change && change.command && idCell) {
      idCell.appendChild(doc.createTextNode(' '));
      idCell.appendChild(button('Copy', { 'data-copy': change.command, title: change.command,
                                          'aria-label': 'Copy the command that accepts change ' + change.id }, 'copy'));
    }
  });
  function changeIndex(changes) {
    var shown = new Set(changes.map(function (ch) { return ch.id; }));
    indexRows.forEach(function (row) {
      var hide = !shown.has(row.getAttribute('data-change'));
      if (row.hidden !== hide) row.hidden = hide;
    });
  }

  function fillChanges(changes) {
    if (!changesList) return;
    var limit = allChanges ? changes.length : Math.min(changes.length, changesList.children.length || 8);
    var slots = Array.prototype.slice.call(changesList.children);
    // The slots the page was written with keep their place: fill them, add or drop the rest.
    changes.slice(0, limit).forEach(function (change, i) {
      var slot = slots[i];
      if (!slot) { slot = el('div', 'change-slot'); changesList.appendChild(slot); }
      if (slot.item !== change) {
        slot.textContent = '';
        slot.classList.remove('grown');
        slot.drawn = false;
        slot.item = change;
        slot.id = 'ch-' + change.id;
        slot.draw = drawChange;
        near.observe(slot);
      }
      slot.hidden = false;
    });
    slots.slice(limit).forEach(function (slot) { slot.hidden = true; });
    changesList.style.setProperty('--n', limit);
    var more = doc.getElementById('changes-more');
    if (more) more.hidden = allChanges || changes.length <= limit;
    var none = doc.getElementById('changes-none');
    if (!none && changesList) {
      none = el('p', 'muted', ['No change has a case the filters show.'], { id: 'changes-none' });
      changesList.parentNode.insertBefore(none, changesList);
    }
    none.hidden = changes.length > 0;
  }

  // ---- Applying

  function apply(options) {
    options = options || {};
    var ok = matcher(), isActive = active();
    var cases = data.cases.filter(ok);
    fillCases(cases);
    var shownIds = new Set(cases.map(function (c) { return c.id; }));
    var shownChanges = data.changes.filter(function (change) {
      return change.members.some(function (i) { return shownIds.has(data.cases[i].id); });
    });
    fillChanges(shownChanges);
    changeIndex(shownChanges);
    var cellsShown = 0;
    cells.forEach(function (cell) {
      var yes = ok(cell);
      if (cell.dimmed !== !yes) { cell.el.classList.toggle('dim', !yes); cell.dimmed = !yes; }
      if (yes) cellsShown++;
    });
    passedLines.forEach(function (line) { var yes = ok(line); if (line.el.hidden === yes) line.el.hidden = !yes; });
    all('[data-skin-block]').forEach(function (block) {
      block.hidden = !!filters.skin && block.getAttribute('data-skin-block') !== filters.skin;
    });
    var count = doc.getElementById('f-count');
    if (count) count.textContent = isActive ? cellsShown + ' of ' + cells.length + ' cases match' : '';
    var casesCount = doc.getElementById('cases-count');
    if (casesCount) casesCount.textContent = isActive ? 'showing ' + cases.length + ' of ' + data.cases.length : '';
    // Each section's count says what the filters leave of it.
    var heads = [['#cases-title .muted', cases.length, data.cases.length], ['#changes-title .muted', shownChanges.length, data.changes.length]];
    heads.forEach(function (h) {
      var node = doc.querySelector(h[0]);
      if (node) node.textContent = '(' + (h[1] === h[2] ? h[2] : h[1] + ' of ' + h[2]) + ')';
    });
    var none = doc.getElementById('cases-none');
    if (none) none.hidden = cases.length > 0 || data.cases.length === 0;
    PG.store('filters', filters);
    if (!options.keepHash) {
      var hash = hashText();
      if (hash !== location.hash && (hash || /^#(hide|skin|dir|scale|q)=/.test(location.hash)))
        history.replaceState(null, '', hash || location.pathname + location.search);
    }
    PG.emit('filtered');
  }
  function reset() {
    filters = { off: [], skin: '', dir: '', scale: '', q: '' };
    showFilters();
    apply();
  }
  function solo(status) {
    var only = filters.off.length === chips.length - 1 && chips.some(function (chip) {
      return chip.getAttribute('data-status-chip') === status && filters.off.indexOf(status) < 0;
    });
    filters.off = only ? [] : chips.map(function (chip) { return chip.getAttribute('data-status-chip'); })
      .filter(function (s) { return s !== status; });
    showFilters();
    apply();
    var target = doc.getElementById(status === 'passed' ? 'passed' : 'cases');
    if (!only && target) {
      if (status === 'passed') all('details.passed').forEach(function (d) { d.open = true; });
      target.scrollIntoView();
    }
  }

  [skinSelect, dirSelect, scaleSelect].forEach(function (s) {
    if (s) s.addEventListener('change', function () { readFilters(); apply(); });
  });
  var searchTimer = 0;
  if (search) search.addEventListener('input', function () {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(function () { readFilters(); apply(); }, 150);
  });
  doc.addEventListener('click', function (event) {
    var b = event.target.closest('button');
    if (!b) return;
    if (b.hasAttribute('data-status-chip')) {
      var status = b.getAttribute('data-status-chip'), at = filters.off.indexOf(status);
      if (at < 0) filters.off.push(status); else filters.off.splice(at, 1);
      showFilters();
      apply();
    } else if (b.hasAttribute('data-solo')) solo(b.getAttribute('data-solo'));
    else if (b.id === 'f-reset') reset();
    else if (b.id === 'changes-more') { allChanges = true; apply(); }
    else if (b.hasAttribute('data-goto-change')) {
      var card = doc.getElementById('ch-' + b.getAttribute('data-goto-change'));
      if (!card && !allChanges) { allChanges = true; apply(); card = doc.getElementById('ch-' + b.getAttribute('data-goto-change')); }
      if (card) card.scrollIntoView();
    }
    else if (b.hasAttribute('data-copy') && navigator.clipboard) {
      navigator.clipboard.writeText(b.getAttribute('data-copy')).then(function () { b.textContent = 'Copied'; }, function () { b.textContent = 'Copy failed'; });
    }
    else if (b.classList.contains('case-open')) toggleCase(b.closest('.case-slot'));
    else if (b.hasAttribute('data-member')) {
      var card = b.closest('.change');
      showRepresentative(card, PG.caseById(b.getAttribute('data-member')));
    } else if (b.hasAttribute('data-members-more')) {
      var details = b.closest('details.members');
      memberTiles(details.closest('.change-slot').item, details);
    }
  });
  doc.addEventListener('toggle', function (event) {
    var details = event.target;
    if (!details.classList || !details.classList.contains('members')) return;
    var slot = details.closest('.change-slot');
    slot.classList.toggle('grown', details.open);
    if (details.open && !details.querySelector('.member-grid').children.length) memberTiles(slot.item, details);
  }, true);

  PG.filters = function () { return filters; };
  PG.reset = reset;
  PG.apply = apply;
  PG.caseShown = function (id) { return shownCases.some(function (c) { return c.id === id; }); };
  PG.cells = cells;

  // Start from the address, else from what the browser kept, else everything.
  function take(start) {
    filters = { off: Array.isArray(start.off) ? start.off.filter(function (s) {
                  return chips.some(function (chip) { return chip.getAttribute('data-status-chip') === s; });
                }) : [],
                skin: String(start.skin || ''), dir: String(start.dir || ''), scale: String(start.scale || ''), q: String(start.q || '') };
    showFilters();
    // A value a select does not offer (another run's skin) is no filter.
    readFilters();
  }
  var start = filtersFromHash(location.hash) || PG.stored().filters;
  if (start && typeof start === 'object') take(start);
  apply({ keepHash: !filtersFromHash(location.hash) && /^#./.test(location.hash) });
  // A link with other filters, followed from this page.
  window.addEventListener('hashchange', function () {
    var fromHash = filtersFromHash(location.hash);
    if (fromHash) { take(fromHash); apply({ keepHash: true }); }
  });
})();
