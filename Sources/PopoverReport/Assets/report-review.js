// Deciding: Accept (the actual image becomes the golden) or Keep (the golden stays), for
// a case or for every case of a change. Opened from disk, the accepted cases are exported
// as approvals.json, each with the digests of the golden and the actual image the
// reviewer saw; served by `popover-goldens review`, Accept writes the golden at once and
// pressing it again puts the old one back. Every count on the page follows.
(function () {
  'use strict';
  var doc = document, PG = window.PopoverGoldens, all = PG.all, data = PG.data;
  var panel = doc.getElementById('review');
  var result = doc.getElementById('review-result');
  var exportButton = doc.getElementById('export-approvals');
  function say(text) { if (result) result.textContent = text; }

  // ---- What the page shows of the decisions

  // The decision of the case(s) inside `root`: pressed buttons, the line's words and class.
  function showDecision(root) {
    all('[data-decide][data-for]', root).forEach(function (b) {
      b.setAttribute('aria-pressed', PG.decision(b.getAttribute('data-for')) === b.getAttribute('data-decide') ? 'true' : 'false');
    });
    all('[data-case]', root).concat(root.hasAttribute && root.hasAttribute('data-case') ? [root] : []).forEach(function (node) {
      var d = PG.decision(node.getAttribute('data-case'));
      node.classList.toggle('accepted', d === 'accept');
      node.classList.toggle('kept', d === 'keep');
      var words = node.querySelector(':scope > .case-line > .decision, :scope > .rep-line > .decision');
      if (words) words.textContent = PG.decisionText(node.getAttribute('data-case'));
    });
  }
  function showChange(slot) {
    var change = slot.item;
    if (!change) return;
    var meta = slot.querySelector('.change-meta');
    if (meta) meta.textContent = PG.changeSummary(change);
    var decidable = change.members.filter(function (i) { return data.cases[i].acceptable; });
    ['accept', 'keep'].forEach(function (d) {
      var b = slot.querySelector('[data-decide-change="' + d + '"]');
      if (!b) return;
      b.disabled = decidable.length === 0;
      b.setAttribute('aria-pressed', decidable.length > 0 && decidable.every(function (i) { return PG.decision(data.cases[i].id) === d; }) ? 'true' : 'false');
    });
    all('.member[data-member]', slot).forEach(function (tile) {
      var id = tile.getAttribute('data-member');
      tile.setAttribute('data-decision', PG.decision(id) || '');
      tile.querySelector('.decision').textContent = PG.decisionText(id);
    });
    var rep = slot.querySelector('.rep');
    if (rep) showDecision(rep);
  }
  PG.showDecision = showDecision;
  PG.showChange = showChange;

  var tileNotes = all('[data-tile-note]');
  var chipCounts = all('[data-status-chip]');
  // Counts: what still needs attention falls as cases are accepted and rises on undo.
  function showCounts() {
    var p = PG.progress();
    var byStatus = {};
    data.cases.forEach(function (c) {
      var s = byStatus[c.status] = byStatus[c.status] || { all: 0, accepted: 0, kept: 0 };
      s.all++;
      if (PG.decision(c.id) === 'accept') s.accepted++;
      if (PG.decision(c.id) === 'keep') s.kept++;
    });
    var accepted = PG.live ? 'accepted' : 'to accept';
    tileNotes.forEach(function (note) {
      var s = byStatus[note.getAttribute('data-tile-note')];
      note.textContent = s && (s.accepted || s.kept)
        ? [s.accepted ? s.accepted + ' ' + accepted : '', s.kept ? s.kept + ' kept' : ''].filter(Boolean).join(', ') : '';
    });
    chipCounts.forEach(function (chip) {
      var s = byStatus[chip.getAttribute('data-status-chip')], b = chip.querySelector('b');
      if (!s || !b) return;
      // The chip counts the cases of its status still needing attention.
      b.textContent = String(s.all - s.accepted);
      chip.title = 'show or hide ' + chip.textContent.replace(/\s*\d+\s*$/, '').replace(/^\W+/, '').trim() + ' cases' +
        (s.accepted ? ' (' + s.accepted + ' more ' + accepted + ')' : '');
    });
    var attention = data.cases.length - p.accepted;
    var text = p.decided + ' of ' + p.decidable + ' decided' +
      (p.accepted ? ' \u00b7 ' + p.accepted + ' ' + accepted : '') + (p.kept ? ' \u00b7 ' + p.kept + ' kept' : '');
    var progress = doc.getElementById('review-progress');
    if (progress) progress.textContent = text;
    var barProgress = doc.getElementById('bar-progress');
    if (barProgress) barProgress.textContent = text + ' \u00b7 ' + attention + ' needing attention';
    var heading = doc.querySelector('#cases-title .muted');
    if (heading) heading.textContent = '(' + data.cases.length + (p.accepted ? ', ' + attention + ' needing attention' : '') + ')';
    if (exportButton) exportButton.disabled = PG.live || !data.cases.some(exportable);
    PG.all('table.matrix td.c').length && PG.cells.forEach(function (cell) {
      if (!cell.c) return;
      var d = PG.decision(cell.id);
      cell.el.classList.toggle('accepted', d === 'accept');
      cell.el.classList.toggle('kept', d === 'keep');
    });
  }
  PG.showCounts = showCounts;

  PG.on('decisions', function (ids) {
    var set = new Set(ids);
    // Matrix cells follow in showCounts; here the lines, representatives and focus mode.
    all('[data-case]:not(td)').forEach(function (node) {
      if (set.has(node.getAttribute('data-case'))) showDecision(node.closest('.case-slot, .rep') || node);
    });
    all('.change-slot').forEach(function (slot) {
      if (slot.item && slot.drawn && slot.item.members.some(function (i) { return set.has(data.cases[i].id); })) showChange(slot);
    });
    showCounts();
  });

  // ---- Deciding

  function post(path, ids) {
    say((path === '/accept' ? 'accepting ' : 'restoring ') + PG.plural(ids.length, 'case') + '\u2026');
    return fetch(path + '?token=' + encodeURIComponent(PG.token), {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ids: ids })
    }).then(function (response) {
      return response.json().then(function (outcome) {
        if (outcome.error) { say('refused: ' + outcome.error); return; }
        PG.setDecision((outcome.accepted || []).concat(outcome.alreadyAccepted || []), 'accept');
        PG.setDecision(outcome.undone || [], null);
        var refused = outcome.refused || [];
        refused.forEach(function (r) { refuse(r.id, r.reason); });
        var parts = [];
        if ((outcome.accepted || []).length) parts.push(outcome.accepted.length + ' accepted');
        if ((outcome.undone || []).length) parts.push(outcome.undone.length + ' restored');
        if (refused.length) parts.push(refused.length + ' refused: ' + refused.map(function (r) { return r.id + ' (' + r.reason + ')'; }).join('; '));
        say(parts.join(', ') || 'nothing changed');
      });
    }).catch(function (error) { say('the review server did not answer: ' + error); });
  }
  function refuse(id, reason) {
    all('[data-case]').forEach(function (node) {
      if (node.getAttribute('data-case') !== id) return;
      var note = node.querySelector('.refusal') || PG.el('p', 'refusal');
      note.textContent = 'Refused: ' + reason;
      node.appendChild(note);
    });
  }

  // Decides `ids` (a case, or a change's decidable cases): `decision` if they are not all
  // decided so already, otherwise takes it back.
  function decide(ids, decision) {
    ids = ids.filter(function (id) { var c = PG.caseById(id); return c && c.acceptable; });
    if (!ids.length) return;
    var already = ids.every(function (id) { return PG.decision(id) === decision; });
    var target = already ? null : decision;
    if (!PG.live) { PG.setDecision(ids, target); return; }
    // Live: an acceptance is the server's to write or undo; "keep" is the page's.
    var accepted = ids.filter(function (id) { return PG.decision(id) === 'accept'; });
    if (target === 'accept') {
      PG.setDecision(ids.filter(function (id) { return PG.decision(id) === 'keep'; }), null);
      post('/accept', ids.filter(function (id) { return PG.decision(id) !== 'accept'; }));
    } else {
      var rest = ids.filter(function (id) { return PG.decision(id) !== 'accept'; });
      PG.setDecision(rest, target);
      if (accepted.length) post('/undo', accepted).then(function () { if (target) PG.setDecision(accepted, target); });
    }
  }
  PG.decide = decide;
  PG.decideChange = function (change, decision) {
    decide(change.members.map(function (i) { return data.cases[i].id; }), decision);
  };

  // Accepted here and not yet on disk: what the run already accepted is never exported again.
  function exportable(c) { return PG.decision(c.id) === 'accept' && !c.accepted; }

  function exportApprovals() {
    var approvals = data.cases.filter(exportable).map(function (c) {
      return { id: c.id, expected: c.expectedDigest, actual: c.actualDigest };
    });
    var text = JSON.stringify({ format: 'popover-goldens approvals', version: 1, approvals: approvals }, null, 2) + '\n';
    var link = PG.el('a', '', null, { href: URL.createObjectURL(new Blob([text], { type: 'application/json' })), download: 'approvals.json' });
    doc.body.appendChild(link);
    link.click();
    link.remove();
    say('approvals.json holds ' + PG.plural(approvals.length, 'case') + ': run the command above to write their goldens.');
  }

  // The command that applies exported approvals, with this report's folder when the page
  // was opened from disk (it knows its own place then).
  var command = panel && panel.querySelector('.review-command code');
  if (command && location.protocol === 'file:') {
    var folder = decodeURIComponent(location.pathname.replace(/\/[^\/]*$/, ''));
    var quoted = /^[\w@%+=:,.\/-]+$/.test(folder) ? folder : "'" + folder.replace(/'/g, "'\\''") + "'";
    command.textContent = command.textContent.replace('--from approvals.json', '--from approvals.json --reports ' + quoted);
  }
  if (PG.live) {
    doc.body.classList.add('live');
    if (panel) panel.classList.add('live');
    all('.static-only').forEach(function (node) { node.remove(); });
    all('.review-live-note').forEach(function (node) { node.hidden = false; });
  }

  doc.addEventListener('click', function (event) {
    var b = event.target.closest('button');
    if (!b) return;
    if (b.hasAttribute('data-decide') && b.hasAttribute('data-for')) decide([b.getAttribute('data-for')], b.getAttribute('data-decide'));
    else if (b.hasAttribute('data-decide-change')) {
      var change = data.changes.filter(function (ch) { return ch.id === b.getAttribute('data-change'); })[0];
      if (change) PG.decideChange(change, b.getAttribute('data-decide-change'));
    } else if (b.id === 'accept-shown') decide(PG.shownCases().map(function (c) { return c.id; }), 'accept');
    else if (b.id === 'decide-none') PG.setDecision(data.cases.map(function (c) { return c.id; }), null);
    else if (b.id === 'export-approvals') exportApprovals();
  });
  showCounts();
})();
