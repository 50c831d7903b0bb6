// Filters: status, skin, direction, scale and ID, over the overview's cells, the case
// sections and the list of passing cases.
(function () {
  'use strict';
  var doc = document, PG = window.PopoverGoldens, all = PG.all;

  var chips = all('[data-status-chip]');
  var statusOn = {};
  chips.forEach(function (chip) { statusOn[chip.getAttribute('data-status-chip')] = true; });
  var skinSelect = doc.getElementById('f-skin'), dirSelect = doc.getElementById('f-dir');
  var scaleSelect = doc.getElementById('f-scale'), search = doc.getElementById('f-q');
  function context(el, name) {
    var holder = el.closest('[data-' + name + ']');
    return holder ? holder.getAttribute('data-' + name) : '';
  }
  var items = [];
  function collect(el, kind, id, status) {
    items.push({ el: el, kind: kind, id: id.toLowerCase(), status: status, skin: context(el, 'skin'),
                 dir: context(el, 'dir'), scale: context(el, 'scale') });
  }
  all('details.case').forEach(function (el) {
    var id = el.querySelector('.cid');
    collect(el, 'case', id ? id.textContent : '', el.getAttribute('data-status'));
  });
  all('.matrix a.c').forEach(function (el) {
    var status = (/\bs-(\w+)/.exec(el.className) || [])[1] || '';
    collect(el, 'cell', el.getAttribute('title') || '', status);
  });
  all('.passed-list li').forEach(function (el) {
    var code = el.querySelector('code');
    collect(el, 'passed', code ? code.textContent : '', 'passed');
  });
  function idMatcher(text) {
    text = text.trim().toLowerCase();
    if (!text) return null;
    if (!/[*?]/.test(text)) return function (id) { return id.indexOf(text) >= 0; };
    // Like the command line's --filter: * any run of characters, ? one.
    var pattern = text.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
    var regex = new RegExp(pattern);
    return function (id) { return regex.test(id); };
  }
  function filtersActive() {
    return chips.some(function (c) { return !c.disabled && c.getAttribute('aria-pressed') === 'false'; }) ||
      (skinSelect && skinSelect.value) || (dirSelect && dirSelect.value) || (scaleSelect && scaleSelect.value) ||
      (search && search.value.trim());
  }
  function apply() {
    var skin = skinSelect ? skinSelect.value : '', dir = dirSelect ? dirSelect.value : '';
    var scale = scaleSelect ? scaleSelect.value : '', matches = idMatcher(search ? search.value : '');
    var shown = 0, total = 0, cellsShown = 0;
    items.forEach(function (item) {
      var ok = statusOn[item.status] !== false && (!skin || item.skin === skin) && (!dir || item.dir === dir) &&
        (!scale || item.scale === scale) && (!matches || matches(item.id));
      if (item.kind === 'cell') { item.el.classList.toggle('dim', !ok); if (ok) cellsShown++; }
      else item.el.hidden = !ok;
      if (item.kind === 'case') { total++; if (ok) shown++; }
    });
    all('[data-skin-block]').forEach(function (block) {
      block.hidden = !!skin && block.getAttribute('data-skin-block') !== skin;
    });
    var active = filtersActive();
    var count = doc.getElementById('f-count');
    if (count) count.textContent = active ? cellsShown + ' of ' + items.filter(function (i) { return i.kind === 'cell'; }).length + ' cases match' : '';
    var casesCount = doc.getElementById('cases-count');
    if (casesCount) casesCount.textContent = active ? 'showing ' + shown + ' of ' + total : '';
    var none = doc.getElementById('cases-none');
    if (none) none.hidden = shown > 0 || total === 0;
  }
  function setChip(chip, on) {
    statusOn[chip.getAttribute('data-status-chip')] = on;
    chip.setAttribute('aria-pressed', on ? 'true' : 'false');
  }
  function reset() {
    chips.forEach(function (chip) { setChip(chip, true); });
    [skinSelect, dirSelect, scaleSelect].forEach(function (s) { if (s) s.value = ''; });
    if (search) search.value = '';
    apply();
  }
  function solo(status) {
    var only = chips.every(function (chip) {
      return (chip.getAttribute('data-status-chip') === status) === (chip.getAttribute('aria-pressed') === 'true');
    });
    chips.forEach(function (chip) { setChip(chip, only || chip.getAttribute('data-status-chip') === status); });
    apply();
    var target = doc.getElementById(status === 'passed' ? 'passed' : 'cases');
    if (!only && target) {
      if (status === 'passed') all('details.passed').forEach(function (d) { d.open = true; });
      target.scrollIntoView();
    }
  }
  [skinSelect, dirSelect, scaleSelect].forEach(function (s) { if (s) s.addEventListener('change', apply); });
  var searchTimer = 0;
  if (search) search.addEventListener('input', function () { clearTimeout(searchTimer); searchTimer = setTimeout(apply, 120); });

  doc.addEventListener('click', function (event) {
    var button = event.target.closest('button');
    if (!button) return;
    if (button.hasAttribute('data-status-chip')) {
      setChip(button, button.getAttribute('aria-pressed') !== 'true');
      apply();
    } else if (button.hasAttribute('data-solo')) solo(button.getAttribute('data-solo'));
    else if (button.id === 'f-reset') reset();
  });

  PG.reset = reset;
  PG.apply = apply;
  apply();
})();
