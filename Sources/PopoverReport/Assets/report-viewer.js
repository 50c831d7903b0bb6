// Viewers: four layouts of the same images (side by side, slider, blink, overlay),
// a zoom in whole device pixels, and finding the changed region.
(function () {
  'use strict';
  var doc = document, PG = window.PopoverGoldens, all = PG.all;
  var dpr = window.devicePixelRatio || 1;

  function naturalSize(img) {
    return [+img.getAttribute('width') || img.naturalWidth, +img.getAttribute('height') || img.naturalHeight];
  }
  var zoomSteps = [0.5, 1, 2, 3, 4, 5, 6, 7, 8];
  function setZoom(viewer, zoom) {
    zoom = +zoom;
    if (zoomSteps.indexOf(zoom) < 0) zoom = 1;
    viewer.setAttribute('data-zoom', zoom);
    // Below 1x pixels are merged anyway: smooth them rather than drop some.
    viewer.classList.toggle('smooth', zoom < 1);
    all('[data-zoom-to]', viewer).forEach(function (b) {
      b.setAttribute('aria-pressed', +b.getAttribute('data-zoom-to') === zoom ? 'true' : 'false');
    });
    all('img.px', viewer).forEach(function (img) {
      var size = naturalSize(img);
      if (!size[0]) {
        img.addEventListener('load', function () { setZoom(viewer, viewer.getAttribute('data-zoom')); }, { once: true });
        return;
      }
      // One image pixel covers zoom x zoom device pixels, whatever the screen's pixel ratio.
      img.style.width = (size[0] * zoom / dpr) + 'px';
      img.style.height = (size[1] * zoom / dpr) + 'px';
    });
  }
  function availableWidth(viewer) {
    var scroll = viewer.querySelector('.stage-scroll');
    // A folded case has no width yet: estimate from the page's.
    return (scroll && scroll.clientWidth) || Math.max(300, doc.documentElement.clientWidth - 110);
  }
  function initialZoom(viewer) {
    var widths = all('img.px', viewer).map(function (img) { return naturalSize(img)[0]; });
    if (!widths.length || widths.some(function (w) { return !w; })) return 1;
    var total = widths.reduce(function (a, b) { return a + b; }, 0);
    var room = availableWidth(viewer) - 16 * (widths.length - 1);
    var widest = Math.max.apply(null, widths);
    // The largest step (up to 4x) that shows every image side by side, none of them
    // wider than a third of a wide screen.
    for (var i = 4; i >= 0; i--) {
      if (total * zoomSteps[i] / dpr <= room && widest * zoomSteps[i] / dpr <= 480) return zoomSteps[i];
    }
    return 0.5;
  }
  function findChange(viewer) {
    var region = (viewer.getAttribute('data-region') || '').split(',').map(Number);
    if (region.length !== 4) return;
    var scroll = viewer.querySelector('.stage-scroll'), room = availableWidth(viewer);
    var zoom = 8;
    while (zoom > 1 && (region[2] * zoom / dpr > room * 0.8 || region[3] * zoom / dpr > 360)) zoom--;
    setZoom(viewer, zoom);
    var mode = viewer.getAttribute('data-mode');
    var img = viewer.querySelector(mode === 'side' ? '.f-heatmap img' : '.f-actual img') || viewer.querySelector('img.px');
    if (!img || !scroll) return;
    var imgRect = img.getBoundingClientRect(), scrollRect = scroll.getBoundingClientRect();
    var cx = imgRect.left - scrollRect.left + scroll.scrollLeft + (region[0] + region[2] / 2) * zoom / dpr;
    var cy = imgRect.top - scrollRect.top + scroll.scrollTop + (region[1] + region[3] / 2) * zoom / dpr;
    scroll.scrollLeft = cx - scroll.clientWidth / 2;
    scroll.scrollTop = cy - scroll.clientHeight / 2;
  }
  var timers = new Map();
  function showBlink(viewer, actual) {
    viewer.classList.toggle('show-actual', actual);
    var state = viewer.querySelector('.blink-state');
    if (state) state.textContent = 'showing ' + (actual ? 'actual' : 'expected');
  }
  function setPaused(viewer, paused) {
    viewer.classList.toggle('paused', paused);
    var button = viewer.querySelector('[data-blink-toggle]');
    if (button) button.textContent = paused ? 'Resume' : 'Pause';
  }
  function blink(viewer, on) {
    clearInterval(timers.get(viewer));
    timers.delete(viewer);
    setPaused(viewer, false);
    showBlink(viewer, false);
    if (on) timers.set(viewer, setInterval(function () {
      if (!viewer.classList.contains('paused')) showBlink(viewer, !viewer.classList.contains('show-actual'));
    }, 600));
  }
  function setMode(viewer, mode) {
    var button = viewer.querySelector('[data-mode-to="' + mode + '"]');
    if (!button || button.disabled) return;
    viewer.setAttribute('data-mode', mode);
    all('[data-mode-to]', viewer).forEach(function (b) { b.setAttribute('aria-pressed', b === button ? 'true' : 'false'); });
    blink(viewer, mode === 'blink');
  }
  function wipeAt(viewer, event) {
    var img = viewer.querySelector('.f-actual img');
    if (!img) return;
    var rect = img.getBoundingClientRect();
    var percent = Math.max(0, Math.min(100, (event.clientX - rect.left) / rect.width * 100));
    viewer.style.setProperty('--wipe', percent + '%');
    var input = viewer.querySelector('[data-wipe-input]');
    if (input) input.value = Math.round(percent);
  }
  function regionText(region) {
    return region[2] === 1 && region[3] === 1 ? 'the pixel at x ' + region[0] + ', y ' + region[1]
      : 'x ' + region[0] + '\u2013' + (region[0] + region[2] - 1) + ', y ' + region[1] + '\u2013' + (region[1] + region[3] - 1);
  }
  // The controls, copied in from the page's one template; views a case has no images
  // for are disabled.
  var toolsTemplate = doc.getElementById('viewer-tools');
  // What "All cases" chose, for cases unfolded afterwards.
  var allMode = null, allZoom = null;
  function addTools(viewer) {
    if (!toolsTemplate || viewer.querySelector('.tools')) return;
    var tools = toolsTemplate.content.firstElementChild.cloneNode(true);
    var has = function (kind) { return !!viewer.querySelector('.f-' + kind); };
    var pair = has('expected') && has('actual'), overlay = has('heatmap') && has('actual');
    [['slider', pair, 'needs expected and actual'], ['blink', pair, 'needs expected and actual'],
     ['overlay', overlay, 'needs a heatmap']].forEach(function (rule) {
      var button = tools.querySelector('[data-mode-to="' + rule[0] + '"]');
      if (!rule[1]) { button.disabled = true; button.title = rule[2]; }
    });
    var find = tools.querySelector('[data-find]');
    var region = (viewer.getAttribute('data-region') || '').split(',').map(Number);
    if (region.length === 4) find.title = 'zoom in on the changed pixels: ' + regionText(region);
    else find.remove();
    viewer.insertBefore(tools, viewer.firstChild);
    if (allMode) setMode(viewer, allMode);
    setZoom(viewer, allZoom || initialZoom(viewer));
  }
  // A folded section keeps its body in a template until it is first unfolded.
  function hydrate(details) {
    var later = details.querySelector(':scope > template.later');
    if (later) later.replaceWith(later.content);
    var viewer = details.querySelector('.viewer');
    if (viewer && !viewer.classList.contains('empty')) addTools(viewer);
  }
  all('details.case[open]').forEach(hydrate);
  // A case unfolded later gets its body, and the zoom its real width allows.
  doc.addEventListener('toggle', function (event) {
    var details = event.target;
    if (!details.open || !details.classList || !details.classList.contains('case')) return;
    hydrate(details);
    var viewer = details.querySelector('.viewer');
    if (viewer && viewer.querySelector('.tools') && !viewer.hasAttribute('data-zoomed')) setZoom(viewer, initialZoom(viewer));
  }, true);

  doc.addEventListener('input', function (event) {
    var target = event.target;
    if (target.id === 'all-zoom') {
      allZoom = target.value || null;
      all('.viewer').forEach(function (viewer) {
        if (target.value) viewer.setAttribute('data-zoomed', ''); else viewer.removeAttribute('data-zoomed');
        setZoom(viewer, target.value ? target.value : initialZoom(viewer));
      });
      return;
    }
    var viewer = target.closest('.viewer');
    if (!viewer) return;
    if (target.hasAttribute('data-wipe-input')) viewer.style.setProperty('--wipe', target.value + '%');
    else if (target.hasAttribute('data-alpha-input')) viewer.style.setProperty('--alpha', target.value / 100);
  });

  var dragging = null;
  doc.addEventListener('pointerdown', function (event) {
    var stage = event.target.closest('.viewer[data-mode="slider"] .stage');
    if (!stage || event.button !== 0) return;
    dragging = stage.closest('.viewer');
    wipeAt(dragging, event);
    event.preventDefault();
  });
  doc.addEventListener('pointerup', function () { dragging = null; });
  doc.addEventListener('pointermove', function (event) {
    if (dragging) {
      if (event.buttons & 1) wipeAt(dragging, event); else dragging = null;
    }
    // Where the pointer is, in image pixels: says where a difference sits.
    var img = event.target.closest && event.target.closest('.viewer img.px');
    if (!img) return;
    var size = naturalSize(img), rect = img.getBoundingClientRect();
    var x = Math.floor((event.clientX - rect.left) / rect.width * size[0]);
    var y = Math.floor((event.clientY - rect.top) / rect.height * size[1]);
    var xy = img.closest('.viewer').querySelector('.xy');
    if (xy && x >= 0 && y >= 0 && x < size[0] && y < size[1]) xy.textContent = 'pixel x ' + x + ', y ' + y;
  });

  doc.addEventListener('click', function (event) {
    var button = event.target.closest('button');
    if (button) {
      var viewer = button.closest('.viewer');
      if (button.hasAttribute('data-mode-to')) setMode(viewer, button.getAttribute('data-mode-to'));
      else if (button.hasAttribute('data-zoom-to')) {
        viewer.setAttribute('data-zoomed', '');
        setZoom(viewer, button.getAttribute('data-zoom-to'));
      }
      else if (button.hasAttribute('data-find')) findChange(viewer);
      else if (button.hasAttribute('data-blink-toggle')) setPaused(viewer, !viewer.classList.contains('paused'));
      else if (button.hasAttribute('data-all-mode')) {
        var mode = allMode = button.getAttribute('data-all-mode');
        all('.viewer').forEach(function (v) { if (v.querySelector('.tools')) setMode(v, mode); });
      }
      else if (button.id === 'expand-all') all('details.case').forEach(function (d) { if (!d.hidden) { d.open = true; hydrate(d); } });
      else if (button.id === 'collapse-all') all('details.case').forEach(function (d) { d.open = false; });
      return;
    }
    // In the stacked views the image is for looking: a click flips the blink, it
    // does not open the file.
    var figureLink = event.target.closest('.viewer:not([data-mode="side"]) figure a');
    if (figureLink) {
      event.preventDefault();
      var stacked = figureLink.closest('.viewer');
      if (stacked.getAttribute('data-mode') === 'blink') {
        setPaused(stacked, true);
        showBlink(stacked, !stacked.classList.contains('show-actual'));
      }
    }
  });

  PG.hydrate = hydrate;
})();
