// Moving around: links to cases open what holds them (even when filters hide it),
// the overview's hover card, and the keys j / k (next, previous case), / (search) and
// Escape.
(function () {
  'use strict';
  var doc = document, PG = window.PopoverGoldens, all = PG.all;
  var search = doc.getElementById('f-q');

  function reveal(id) {
    var el = doc.getElementById(id);
    if (!el) { try { el = doc.getElementById(decodeURIComponent(id)); } catch (e) { el = null; } }
    if (!el) return null;
    if (el.hidden || el.closest('[hidden]')) PG.reset();
    for (var node = el; node; node = node.parentElement) if (node.tagName === 'DETAILS') node.open = true;
    el.classList.add('flash');
    setTimeout(function () { el.classList.remove('flash'); }, 1500);
    return el;
  }
  window.addEventListener('hashchange', function () {
    var el = reveal(location.hash.slice(1));
    if (el) el.scrollIntoView();
  });
  if (location.hash.length > 1) {
    var start = reveal(location.hash.slice(1));
    if (start) start.scrollIntoView();
  }

  doc.addEventListener('click', function (event) {
    if (event.target.closest('button')) return;
    var link = event.target.closest('a[href^="#"]');
    if (link) reveal(link.getAttribute('href').slice(1));
  });

  // The hover card: the ID, and for a failing case its heatmap.

  var card = doc.createElement('div');
  card.className = 'hover';
  card.hidden = true;
  doc.body.appendChild(card);
  var carded = null;
  function hideCard() {
    card.hidden = true;
    if (carded) { carded.setAttribute('title', carded.getAttribute('data-title')); carded = null; }
  }
  doc.addEventListener('mouseover', function (event) {
    var cell = event.target.closest && event.target.closest('a.c');
    var pop = cell && cell.querySelector('.pop');
    if (cell === carded) return;
    hideCard();
    if (!pop) return;
    // The card says what the title would; keep the browser's tooltip from covering it.
    carded = cell;
    cell.setAttribute('data-title', cell.getAttribute('title'));
    cell.removeAttribute('title');
    card.textContent = '';
    var id = doc.createElement('div');
    id.className = 'hover-id';
    id.textContent = cell.getAttribute('data-title');
    card.appendChild(id);
    card.appendChild(pop.cloneNode(true));
    card.hidden = false;
    var rect = cell.getBoundingClientRect();
    card.style.left = Math.max(8, Math.min(rect.right + 10, window.innerWidth - card.offsetWidth - 8)) + 'px';
    card.style.top = Math.max(8, Math.min(rect.top - 8, window.innerHeight - card.offsetHeight - 8)) + 'px';
  });
  window.addEventListener('scroll', hideCard, { passive: true });

  // Keys.

  doc.addEventListener('keydown', function (event) {
    if (event.target.closest('input, select, textarea')) {
      if (event.key === 'Escape') event.target.blur();
      return;
    }
    if (event.metaKey || event.ctrlKey || event.altKey) return;
    if (event.key === '/' && search) { event.preventDefault(); search.focus(); return; }
    if (event.key !== 'j' && event.key !== 'k') return;
    var line = PG.barHeight() + 12;
    var cases = all('details.case').filter(function (d) { return !d.hidden; });
    var next = null;
    if (event.key === 'j') {
      next = cases.find(function (d) { return d.getBoundingClientRect().top > line + 2; });
    } else {
      for (var i = cases.length - 1; i >= 0; i--) {
        if (cases[i].getBoundingClientRect().top < line - 2) { next = cases[i]; break; }
      }
    }
    if (next) { next.open = true; next.scrollIntoView(); }
  });

})();
