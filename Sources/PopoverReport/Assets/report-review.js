// Reviewing: choosing the cases whose actual image should become the golden, exporting
// those choices as approvals.json (opened from disk, say from a CI artifact), and, when
// the page is served by `popover-goldens review`, accepting and undoing at once.
(function () {
  'use strict';
  var doc = document, PG = window.PopoverGoldens, all = PG.all;
  var panel = doc.getElementById('review');
  if (!panel) return;
  var token = new URLSearchParams(location.search).get('token');
  var live = /^https?:$/.test(location.protocol) && !!token;
  var count = doc.getElementById('accept-count');
  var exportButton = doc.getElementById('export-approvals');
  var acceptChosen = doc.getElementById('accept-chosen');
  var result = doc.getElementById('review-result');

  function sectionOf(id) {
    return all('details.case[data-case]').filter(function (d) { return d.getAttribute('data-case') === id; })[0];
  }
  function boxes() { return all('input[data-accept]'); }
  function chosen() { return boxes().filter(function (b) { return b.checked; }); }
  function refresh() {
    var n = chosen().length;
    count.textContent = n + ' chosen';
    exportButton.disabled = n === 0;
    if (acceptChosen) acceptChosen.disabled = n === 0;
  }
  function say(text) { result.textContent = text; }

  // The command that applies exported approvals, with this report's folder when the page
  // was opened from disk (it knows its own place then).
  var command = panel.querySelector('.review-command code');
  if (command && location.protocol === 'file:') {
    var folder = decodeURIComponent(location.pathname.replace(/\/[^\/]*$/, ''));
    var quoted = /^[\w@%+=:,.\/-]+$/.test(folder) ? folder : "'" + folder.replace(/'/g, "'\\''") + "'";
    command.textContent = command.textContent.replace('--from approvals.json',
      '--from approvals.json --reports ' + quoted);
  }

  function exportApprovals() {
    var approvals = chosen().map(function (box) {
      var section = box.closest('details.case');
      return { id: section.getAttribute('data-case'), expected: section.getAttribute('data-expected-digest'),
               actual: section.getAttribute('data-actual-digest') };
    });
    var text = JSON.stringify({ format: 'popover-goldens approvals', version: 1, approvals: approvals }, null, 2) + '\n';
    var link = doc.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    link.download = 'approvals.json';
    doc.body.appendChild(link);
    link.click();
    link.remove();
    say('approvals.json holds ' + approvals.length + ' case' + (approvals.length === 1 ? '' : 's') +
        ': run the command above to write their goldens.');
  }

  // ---- Live: the server writes goldens and keeps what it replaced for undo.

  // Shows a case as accepted (with an Undo button) or as open to accepting again.
  function mark(id, accepted, reason) {
    var section = sectionOf(id);
    if (!section) return;
    section.classList.toggle('accepted', accepted);
    all('.matrix a.c').forEach(function (cell) {
      if ((cell.getAttribute('data-title') || cell.getAttribute('title')) === id) cell.classList.toggle('accepted', accepted);
    });
    var box = section.querySelector('.accept-box');
    if (!box) return;
    box.textContent = '';
    box.className = 'accept-box' + (accepted ? ' done' : '');
    if (accepted) {
      box.appendChild(doc.createTextNode('accepted '));
      var undo = doc.createElement('button');
      undo.type = 'button';
      undo.setAttribute('data-undo', id);
      undo.textContent = 'Undo';
      box.appendChild(undo);
    } else {
      var label = doc.createElement('label');
      var input = doc.createElement('input');
      input.type = 'checkbox';
      input.setAttribute('data-accept', id);
      label.appendChild(input);
      label.appendChild(doc.createTextNode(' accept'));
      box.appendChild(label);
      var now = doc.createElement('button');
      now.type = 'button';
      now.setAttribute('data-accept-now', id);
      now.textContent = 'Accept';
      box.appendChild(now);
    }
    var note = section.querySelector('.refusal');
    if (note) note.remove();
    if (reason) {
      note = doc.createElement('p');
      note.className = 'refusal';
      note.textContent = reason;
      var body = section.querySelector('.case-body') || section;
      body.insertBefore(note, body.firstChild);
      section.open = true;
    }
  }

  function post(path, ids) {
    say((path === '/accept' ? 'accepting ' : 'restoring ') + ids.length + '…');
    return fetch(path + '?token=' + encodeURIComponent(token), {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ids: ids })
    }).then(function (response) {
      return response.json().then(function (outcome) {
        if (outcome.error) { say('refused: ' + outcome.error); return; }
        (outcome.accepted || []).concat(outcome.alreadyAccepted || []).forEach(function (id) { mark(id, true); });
        (outcome.undone || []).forEach(function (id) { mark(id, false); });
        (outcome.refused || []).forEach(function (r) { mark(r.id, path !== '/accept', r.reason); });
        var parts = [];
        if ((outcome.accepted || []).length) parts.push(outcome.accepted.length + ' accepted');
        if ((outcome.undone || []).length) parts.push(outcome.undone.length + ' restored');
        if ((outcome.refused || []).length) parts.push(outcome.refused.length + ' refused (see each case)');
        say(parts.join(', ') || 'nothing changed');
        refresh();
      });
    }).catch(function (error) { say('the review server did not answer: ' + error); });
  }

  if (live) {
    panel.classList.add('live');
    all('.live-only, .review-live-note').forEach(function (el) { el.hidden = false; });
  }

  doc.addEventListener('change', function (event) {
    if (event.target.hasAttribute('data-accept')) refresh();
  });
  doc.addEventListener('click', function (event) {
    var button = event.target.closest('button');
    if (!button) return;
    if (button.id === 'accept-shown') {
      // Every case the filters leave visible.
      boxes().forEach(function (box) {
        var section = box.closest('details.case');
        if (!section.hidden && !section.closest('[hidden]')) box.checked = true;
      });
      refresh();
    } else if (button.id === 'accept-none') {
      boxes().forEach(function (box) { box.checked = false; });
      refresh();
    } else if (button.id === 'export-approvals') exportApprovals();
    else if (live && button.id === 'accept-chosen') {
      post('/accept', chosen().map(function (box) { return box.getAttribute('data-accept'); }));
    } else if (live && button.hasAttribute('data-accept-now')) {
      event.preventDefault();
      post('/accept', [button.getAttribute('data-accept-now')]);
    } else if (live && button.hasAttribute('data-undo')) {
      event.preventDefault();
      post('/undo', [button.getAttribute('data-undo')]);
    }
  });
  refresh();
})();
