// Shared by the report's scripts (each file is one inline script element, in the order the
// page lists them): the namespace they share and a few helpers. The scripts read only
// what the markup holds (data-* attributes, titles, text), all escaped by the writer;
// they build no HTML from strings, only DOM nodes and text.
(function () {
  'use strict';
  var doc = document;
  doc.body.classList.remove('nojs');
  var bar = doc.getElementById('bar');
  if (bar) bar.hidden = false;
  var PG = window.PopoverGoldens = {
    all: function (selector, root) { return Array.prototype.slice.call((root || doc).querySelectorAll(selector)); },
    barHeight: function () { return bar ? bar.offsetHeight : 0; }
  };
  function measureBar() { doc.documentElement.style.setProperty('--bar-h', PG.barHeight() + 'px'); }
  measureBar();
  window.addEventListener('resize', measureBar);
})();
