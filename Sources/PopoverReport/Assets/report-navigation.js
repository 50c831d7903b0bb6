// Moving around: the overview's matrix (one stop for Tab; arrow keys between cells,
// Enter or a click for the case, a card on hover and on focus), links to cases (#c-...)
// that open what holds them even when filters hide it, and the keys j / k (next,
// previous case) and / (search).
(function () {
  'use strict';
  var doc = document, PG = window.PopoverGoldens, el = PG.el, all = PG.all;
  var search = doc.getElementById('f-q');

  function flash(node) {
    node.classList.add('flash');
    setTimeout(function () { node.classList.remove('flash'); }, 1500);
  }
  // Shows a case: its line, opened, among the cases; a passing one in the passed list.
  function reveal(id) {
    var c = PG.caseById(id);
    if (c) {
      if (!PG.caseShown(id)) PG.reset();
      var slot = PG.slotOf(id);
      if (!slot) return null;
      PG.toggleCase(slot, true);
      slot.scrollIntoView();
      flash(slot);
      return slot;
    }
    var line = doc.getElementById(PG.anchor(id));
    if (!line) return null;
    if (line.hidden || line.closest('[hidden]')) PG.reset();
    for (var node = line; node; node = node.parentElement) if (node.tagName === 'DETAILS') node.open = true;
    line.scrollIntoView();
    flash(line);
    return line;
  }
  PG.reveal = reveal;
  function revealHash() {
    var hash = location.hash.slice(1);
    if (!/^c-/.test(hash)) return;
    // The anchor of a case, as Escape.caseAnchor writes it.
    var id = null;
    PG.data.cases.some(function (c) { if (PG.anchor(c.id) === hash) { id = c.id; return true; } return false; });
    if (!id) { try { id = decodeURIComponent(hash.slice(2)); } catch (e) { id = hash.slice(2); } }
    reveal(id);
  }
  window.addEventListener('hashchange', revealHash);
  revealHash();

  // ---- The matrix

  var card = el('div', 'hover', null, { role: 'tooltip', id: 'matrix-card' });
  card.hidden = true;
  doc.body.appendChild(card);
  var carded = null;
  function hideCard() {
    card.hidden = true;
    if (carded) { carded.setAttribute('title', carded.getAttribute('data-title')); carded.removeAttribute('aria-describedby'); carded = null; }
  }
  function showCard(cell) {
    if (cell === carded) return;
    hideCard();
    var id = cell.getAttribute('data-case'), c = PG.caseById(id);
    // The card says what the title would; keep the browser's tooltip from covering it.
    carded = cell;
    cell.setAttribute('data-title', cell.getAttribute('title'));
    cell.removeAttribute('title');
    cell.setAttribute('aria-describedby', 'matrix-card');
    card.textContent = '';
    card.appendChild(el('div', 'hover-id', [id]));
    var body = el('div', 'pop', [
      c && c.thumb ? el('img', '', null, { src: c.thumb.src, alt: '', width: String(c.thumb.w), height: String(c.thumb.h) }) : null,
      el('span', 'pop-text', [c ? c.word + ': ' + c.headline : 'passed'])]);
    card.appendChild(body);
    card.hidden = false;
    var rect = cell.getBoundingClientRect();
    card.style.left = Math.max(8, Math.min(rect.right + 10, window.innerWidth - card.offsetWidth - 8)) + 'px';
    card.style.top = Math.max(8, Math.min(rect.top - 8, window.innerHeight - card.offsetHeight - 8)) + 'px';
  }
  doc.addEventListener('mouseover', function (event) {
    var cell = event.target.closest && event.target.closest('table.matrix td.c');
    if (cell) showCard(cell); else if (carded && doc.activeElement !== carded) hideCard();
  });
  doc.addEventListener('focusin', function (event) {
    var cell = event.target.closest && event.target.closest('table.matrix td.c');
    if (cell) showCard(cell); else hideCard();
  });
  window.addEventListener('scroll', function () { if (!carded || doc.activeElement !== carded) hideCard(); }, { passive: true });

  // The cell `dr` rows and `dc` columns away that holds a case, skipping empty ones.
  function cellFrom(cell, dr, dc) {
    var table = cell.closest('table'), rows = Array.prototype.slice.call(table.tBodies[0].rows);
    var grid = rows.map(function (row) {
      var cols = [], at = 0;
      Array.prototype.forEach.call(row.cells, function (td) {
        if (td.tagName === 'TH') return;
        cols[at++] = td;
      });
      return cols;
    });
    var r = rows.indexOf(cell.parentNode), col = grid[r].indexOf(cell);
    for (var i = 1; ; i++) {
      var nr = r + dr * i, nc = col + dc * i;
      if (nr < 0 || nr >= grid.length || nc < 0 || nc >= grid[nr].length) return null;
      var next = grid[nr][nc];
      if (next && next.classList.contains('c')) return next;
    }
  }
  function moveTo(from, to) {
    if (!to) return;
    from.setAttribute('tabindex', '-1');
    to.setAttribute('tabindex', '0');
    to.focus();
  }
  doc.addEventListener('keydown', function (event) {
    var cell = event.target.closest && event.target.closest('table.matrix td.c');
    if (!cell) return;
    var moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    if (moves[event.key]) { event.preventDefault(); moveTo(cell, cellFrom(cell, moves[event.key][0], moves[event.key][1])); }
    else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      var cells = all('td.c', cell.parentNode);
      moveTo(cell, event.key === 'Home' ? cells[0] : cells[cells.length - 1]);
    } else if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); hideCard(); reveal(cell.getAttribute('data-case')); }
  });
  doc.addEventListener('click', function (event) {
    var cell = event.target.closest && event.target.closest('table.matrix td.c');
    if (cell) {
      var old = cell.closest('table').querySelector('td[tabindex="0"]');
      if (old && old !== cell) moveTo(old, cell);
      hideCard();
      reveal(cell.getAttribute('data-case'));
    }
  });

  // ---- Keys outside focus mode

  doc.addEventListener('keydown', function (event) {
    if (event.target.closest && event.target.closest('input, select, textarea')) {
      if (event.key === 'Escape') event.target.blur();
      return;
    }
    if (event.metaKey || event.ctrlKey || event.altKey || doc.body.classList.contains('focusing')) return;
    if (event.key === '/' && search) { event.preventDefault(); search.focus(); return; }
    if (event.key !== 'j' && event.key !== 'k') return;
    var line = PG.barHeight() + 12;
    var slots = all('#case-list .case-slot');
    var next = null;
    if (event.key === 'j') {
      next = slots.find(function (s) { return s.getBoundingClientRect().top > line + 2; });
      if (!next) {
        // The lines below are not drawn yet (far from the screen): the next case the
        // filters show, drawn now.
        var shown = PG.shownCases(), last = slots[slots.length - 1];
        var after = last ? shown.findIndex(function (c) { return c.id === last.getAttribute('data-slot-case'); }) + 1 : 0;
        if (after < shown.length) next = PG.slotOf(shown[after].id);
      }
    } else {
      for (var i = slots.length - 1; i >= 0; i--) {
        if (slots[i].getBoundingClientRect().top < line - 2) { next = slots[i]; break; }
      }
    }
    if (next) {
      next.scrollIntoView();
      var head = next.querySelector('.case-open');
      if (head) head.focus({ preventScroll: true });
    }
  });
})();
