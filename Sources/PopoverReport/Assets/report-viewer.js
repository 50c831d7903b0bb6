// The viewer: a case's expected, actual and heatmap images, fitted side by side to the
// room there is, whatever their size; or stacked as a wipe, an onion skin, a blink or
// the heatmap over the actual image. Pan and zoom are one state for every pane and
// every view, so switching view keeps what Find change found. Zoom steps are device
// pixels per image pixel (pixel-exact from 1 up); "fit" fits the images to the panes.
(function () {
  'use strict';
  var doc = document, PG = window.PopoverGoldens, el = PG.el, button = PG.button;
  var zooms = PG.data.zooms.length ? PG.data.zooms : [0.125, 0.25, 0.5, 1, 2, 3, 4, 5, 6, 7, 8];
  var modes = [
    ['side', 'Side by side', 'expected, actual and heatmap next to each other'],
    ['wipe', 'Wipe', 'expected left of the line, actual right of it; drag on the image'],
    ['onion', 'Onion skin', 'actual over expected, as see-through as the slider says'],
    ['blink', 'Blink', 'expected and actual in turn'],
    ['overlay', 'Overlay', 'the heatmap over the actual image']
  ];
  var kinds = [['expected', 'golden'], ['actual', 'this run'], ['heatmap', 'differences']];
  // The view a new viewer starts in: the one last chosen, fitted (focus mode carries
  // its zoom from case to case itself).
  PG.viewPrefs = { mode: 'side', zoom: 'fit' };

  function zoomLabel(z) {
    return z === 'fit' ? 'Fit' : z >= 1 ? String(z) : z === 0.5 ? '\u00bd' : z === 0.25 ? '\u00bc' : '\u215b';
  }

  // Pixel values need the images' pixels, which a page opened from disk may not read
  // (the browser treats each file as its own origin); served, it can.
  var pixelCache = new Map();
  function pixelsOf(image) {
    if (pixelCache.has(image.src)) return pixelCache.get(image.src);
    var entry = { state: 'loading' };
    pixelCache.set(image.src, entry);
    var img = new Image();
    img.onload = function () {
      try {
        var canvas = doc.createElement('canvas');
        canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
        var context = canvas.getContext('2d', { willReadFrequently: true });
        context.drawImage(img, 0, 0);
        entry.pixels = context.getImageData(0, 0, canvas.width, canvas.height);
        entry.state = 'ready';
      } catch (e) { entry.state = 'closed'; }
    };
    img.onerror = function () { entry.state = 'closed'; };
    img.src = image.src;
    return entry;
  }
  function valueAt(image, x, y) {
    if (!image || x < 0 || y < 0 || x >= image.w || y >= image.h) return 'outside';
    var entry = pixelsOf(image);
    if (entry.state !== 'ready') return entry.state === 'loading' ? '\u2026' : null;
    var d = entry.pixels.data, i = (y * entry.pixels.width + x) * 4;
    return 'rgba(' + d[i] + ', ' + d[i + 1] + ', ' + d[i + 2] + ', ' + d[i + 3] + ')';
  }

  // Narrower than this, side by side is one pane showing one image at a time.
  var narrow = window.matchMedia('(max-width: 600px)');
  narrow.addEventListener('change', function () {
    PG.all('.viewer').forEach(function (node) { if (node.viewerObject && node.viewerObject.ports) node.viewerObject.build(); });
  });

  var resizes = new ResizeObserver(function (entries) {
    entries.forEach(function (entry) { var v = entry.target.viewer; if (v) v.layout(); });
  });

  function Viewer(c, options) {
    options = options || {};
    var self = this;
    this.c = c;
    this.images = {};
    kinds.forEach(function (k) { if (c[k[0]]) self.images[k[0]] = c[k[0]]; });
    var has = this.images;
    this.width = Math.max.apply(null, Object.keys(has).map(function (k) { return has[k].w; }).concat([1]));
    this.height = Math.max.apply(null, Object.keys(has).map(function (k) { return has[k].h; }).concat([1]));
    this.state = { mode: options.mode || PG.viewPrefs.mode, zoom: options.zoom || PG.viewPrefs.zoom,
                   cx: this.width / 2, cy: this.height / 2, layer: 'actual', wipe: 50, onion: 50, heat: 70, showActual: false };
    // The same place as the viewer before, when the images are the same size.
    if (options.at && options.at.width === this.width && options.at.height === this.height) {
      this.state.cx = options.at.cx;
      this.state.cy = options.at.cy;
    }
    // Where the change is: regions to step through, each framed and zoomed in turn;
    // `at` is the one shown (-1: none yet, the frame holds every changed pixel).
    this.regions = c.regions || (c.region ? [c.region] : []);
    this.at = -1;
    this.available = {
      side: true, wipe: !!(has.expected && has.actual), onion: !!(has.expected && has.actual),
      blink: !!(has.expected && has.actual), overlay: !!(has.heatmap && has.actual)
    };
    if (!this.available[this.state.mode]) this.state.mode = 'side';
    if (!Object.keys(has).length) {
      this.el = el('div', 'viewer empty', [el('p', 'muted', [c.noImages || 'No images saved for this case.'])]);
      return;
    }
    this.el = el('div', 'viewer', null, { 'data-mode': this.state.mode });
    if (options.className) this.el.className += ' ' + options.className;
    this.el.viewerObject = this;
    this.tools = this.buildTools();
    this.panes = el('div', 'panes');
    this.readout = el('p', 'readout', ['Point at an image for its pixel values.']);
    this.el.appendChild(this.tools);
    this.el.appendChild(this.panes);
    // The heatmap's scale beside the heatmap, as the page's legend says it, in short.
    var legend = has.heatmap && doc.querySelector('.legend');
    this.el.appendChild(el('div', 'viewer-foot', [this.readout, legend ? legendCopy(legend) : null]));
    this.build();
  }

  function legendCopy(legend) {
    var copy = legend.cloneNode(true);
    copy.className = 'legend small';
    copy.removeAttribute('id');
    copy.hidden = false;
    return copy;
  }

  Viewer.prototype.buildTools = function () {
    var self = this;
    var modeButtons = modes.map(function (m) {
      var b = button(m[1], { 'data-mode-to': m[0], title: m[2], 'aria-pressed': m[0] === self.state.mode ? 'true' : 'false' });
      if (!self.available[m[0]]) { b.disabled = true; b.title = m[0] === 'overlay' ? 'needs a heatmap' : 'needs expected and actual'; }
      return b;
    });
    var zoomButtons = ['fit'].concat(zooms).map(function (z) {
      return button(zoomLabel(z), {
        'data-zoom-to': String(z), 'aria-pressed': String(z) === String(self.state.zoom) ? 'true' : 'false',
        title: z === 'fit' ? 'fit the images to the panes' : z + ' \u00d7 ' + z + ' device pixels per image pixel'
      });
    });
    var range = function (name, label, value) {
      return el('label', 'only-' + name, [label + ' ',
        el('input', '', null, { type: 'range', min: '0', max: '100', value: String(value), 'data-range': name })]);
    };
    var n = this.regions.length;
    var find = n ? el('span', 'regions', [
      button(n > 1 ? 'Next region' : 'Find change', { 'data-region-step': '1',
             title: n > 1 ? 'frame the next of the ' + n + ' places where pixels changed (c)' : 'zoom in on the changed pixels: ' + this.c.regionText + ' (c)' }, 'find'),
      n > 1 ? button('Previous', { 'data-region-step': '-1', 'aria-label': 'Previous region', title: 'frame the previous region (Shift+C)' }, 'find') : null,
      n > 1 ? el('span', 'region-at muted', [n + ' regions'], { 'aria-live': 'polite' }) : null]) : null;
    return el('div', 'tools', [
      el('span', 'seg', modeButtons, { role: 'group', 'aria-label': 'view' }),
      el('span', 'zoom', [el('span', 'muted', ['Zoom']), el('span', 'seg small', zoomButtons, { role: 'group', 'aria-label': 'zoom' })]),
      find,
      range('wipe', 'Wipe', this.state.wipe),
      range('onion', 'Actual', this.state.onion),
      range('overlay', 'Heatmap', this.state.heat),
      el('span', 'only-blink', [el('span', 'blink-state', ['showing expected'])])
    ]);
  };

  // A layer: the image in image pixels, moved and scaled as one.
  function layer(kind, image) {
    var img = el('img', 'px', null, { src: image.src, width: String(image.w), height: String(image.h), alt: kind, draggable: 'false', decoding: 'async' });
    var moved = el('div', 'moved', [img]);
    var holder = el('div', 'layer l-' + kind, [moved]);
    holder.moved = moved;
    return holder;
  }

  Viewer.prototype.build = function () {
    var self = this, mode = this.state.mode, has = this.images;
    this.ports = [];
    this.panes.textContent = '';
    this.el.setAttribute('data-mode', mode);
    var regionFrame = function () { return self.c.region ? el('div', 'region', null, { 'aria-hidden': 'true' }) : null; };
    if (mode === 'side' && narrow.matches) {
      // A phone: one pane, the three images in turn, rather than three slivers.
      if (!has[this.state.layer]) this.state.layer = has.actual ? 'actual' : Object.keys(has)[0];
      var stack = el('div', 'port stacked', kinds.map(function (k) { return has[k[0]] ? layer(k[0], has[k[0]]) : null; }).concat([regionFrame()]));
      var choose = el('span', 'seg small', kinds.filter(function (k) { return has[k[0]]; }).map(function (k) {
        return button(k[0], { 'data-layer-to': k[0], 'aria-pressed': k[0] === self.state.layer ? 'true' : 'false',
                              title: k[1] + ' ' + has[k[0]].w + '\u00d7' + has[k[0]].h });
      }), { role: 'group', 'aria-label': 'image shown' });
      self.panes.appendChild(el('figure', 'pane', [el('figcaption', '', [choose]), stack]));
      self.ports.push(stack);
    } else if (mode === 'side') {
      kinds.forEach(function (k) {
        var image = has[k[0]];
        if (!image) return;
        var port = el('div', 'port', [layer(k[0], image), regionFrame()]);
        var pane = el('figure', 'pane f-' + k[0], [
          el('figcaption', '', [k[0] + ' ', el('small', '', [k[1] + ' ' + image.w + '\u00d7' + image.h]),
            ' ', el('a', 'open-file', ['open'], { href: image.src, target: '_blank', title: 'the ' + k[0] + ' image file' })]),
          port]);
        port.kind = k[0];
        self.panes.appendChild(pane);
        self.ports.push(port);
      });
    } else {
      var layers = [layer('expected', has.expected || has.actual), layer('actual', has.actual)];
      if (mode === 'overlay') layers = [layer('actual', has.actual), layer('heatmap', has.heatmap)];
      var port = el('div', 'port stacked', layers.concat([mode === 'wipe' ? el('div', 'wipe-line', null, { 'aria-hidden': 'true' }) : null, regionFrame()]));
      var caption = { wipe: 'expected | actual', onion: 'actual over expected', blink: '', overlay: 'heatmap over actual' }[mode];
      var pane = el('figure', 'pane', [el('figcaption', '', [caption]), port]);
      self.panes.appendChild(pane);
      self.ports.push(port);
    }
    this.ports.forEach(function (port) { port.viewer = self; resizes.observe(port); });
    clearInterval(this.timer);
    if (mode === 'blink') {
      this.timer = setInterval(function () {
        if (!self.el.isConnected) { clearInterval(self.timer); return; }
        self.state.showActual = !self.state.showActual;
        self.applyLayers();
      }, 600);
    }
    this.layout();
    this.applyLayers();
  };

  Viewer.prototype.scale = function () {
    var z = this.state.zoom;
    if (z !== 'fit') return z / (window.devicePixelRatio || 1);
    var self = this, best = Infinity;
    this.ports.forEach(function (port) {
      var w = port.clientWidth, h = port.clientHeight;
      if (w && h) best = Math.min(best, (w - 8) / self.width, (h - 8) / self.height);
    });
    return best === Infinity ? 1 : best;
  };

  // Places every layer: the point (cx, cy) of the image at each port's middle.
  Viewer.prototype.layout = function () {
    if (!this.ports) return;
    var s = this.scale(), state = this.state, dpr = window.devicePixelRatio || 1, self = this;
    if (state.zoom === 'fit') { state.cx = this.width / 2; state.cy = this.height / 2; }
    this.s = s;
    this.el.classList.toggle('smooth', s * dpr < 1);
    this.ports.forEach(function (port) {
      var w = port.clientWidth, h = port.clientHeight;
      // Whole device pixels, so a zoom of n shows each image pixel as n x n of them.
      var tx = Math.round((w / 2 - state.cx * s) * dpr) / dpr, ty = Math.round((h / 2 - state.cy * s) * dpr) / dpr;
      port.origin = [tx, ty];
      PG.all('.moved', port).forEach(function (moved) {
        moved.style.transform = 'translate(' + tx + 'px,' + ty + 'px) scale(' + s + ')';
      });
      var frame = port.querySelector('.region');
      var r = self.at >= 0 ? self.regions[self.at] : self.c.region;
      if (frame && r) {
        var big = self.at < 0 && r[2] * r[3] * 3 >= self.width * self.height;
        frame.hidden = big;
        frame.style.left = (tx + r[0] * s - 2) + 'px'; frame.style.top = (ty + r[1] * s - 2) + 'px';
        frame.style.width = (r[2] * s + 4) + 'px'; frame.style.height = (r[3] * s + 4) + 'px';
      }
      var line = port.querySelector('.wipe-line');
      if (line) line.style.left = (w * state.wipe / 100) + 'px';
    });
  };

  Viewer.prototype.applyLayers = function () {
    var state = this.state, mode = state.mode, self = this;
    this.ports.forEach(function (port) {
      var actual = port.querySelector('.l-actual'), heat = port.querySelector('.l-heatmap');
      if (mode === 'wipe' && actual) actual.style.clipPath = 'inset(0 0 0 ' + state.wipe + '%)';
      if (mode === 'onion' && actual) actual.style.opacity = state.onion / 100;
      if (mode === 'overlay' && heat) heat.style.opacity = state.heat / 100;
      if (mode === 'blink' && actual) actual.style.visibility = state.showActual ? 'visible' : 'hidden';
      if (mode === 'side' && port.classList.contains('stacked')) PG.all('.layer', port).forEach(function (l) {
        l.hidden = !l.classList.contains('l-' + state.layer);
      });
    });
    var blinkState = this.el.querySelector('.blink-state');
    if (blinkState) blinkState.textContent = 'showing ' + (state.showActual ? 'actual' : 'expected');
  };

  Viewer.prototype.setLayer = function (kind) {
    if (!this.images[kind]) return;
    this.state.layer = kind;
    PG.all('[data-layer-to]', this.el).forEach(function (b) {
      b.setAttribute('aria-pressed', b.getAttribute('data-layer-to') === kind ? 'true' : 'false');
    });
    this.applyLayers();
  };

  Viewer.prototype.setMode = function (mode) {
    if (!this.available || !this.available[mode] || mode === this.state.mode) return;
    this.state.mode = PG.viewPrefs.mode = mode;
    this.state.showActual = false;
    PG.all('[data-mode-to]', this.tools).forEach(function (b) {
      b.setAttribute('aria-pressed', b.getAttribute('data-mode-to') === mode ? 'true' : 'false');
    });
    this.build();
  };

  // Zoom to a step (or 'fit'), keeping the image point under (px, py) of a port in
  // place; without a point, the middle stays.
  Viewer.prototype.setZoom = function (zoom, port, px, py) {
    if (!this.ports) return;
    zoom = zoom === 'fit' ? 'fit' : +zoom;
    if (zoom !== 'fit' && zooms.indexOf(zoom) < 0) return;
    var before = this.s || this.scale();
    if (port) {
      var w = port.clientWidth, h = port.clientHeight;
      var ix = this.state.cx + (px - w / 2) / before, iy = this.state.cy + (py - h / 2) / before;
      var after = zoom === 'fit' ? before : zoom / (window.devicePixelRatio || 1);
      this.state.cx = ix - (px - w / 2) / after;
      this.state.cy = iy - (py - h / 2) / after;
    }
    this.state.zoom = zoom;
    PG.all('[data-zoom-to]', this.tools).forEach(function (b) {
      b.setAttribute('aria-pressed', b.getAttribute('data-zoom-to') === String(zoom) ? 'true' : 'false');
    });
    this.layout();
  };

  // The next step in or out from what shows now.
  Viewer.prototype.stepZoom = function (direction, port, px, py) {
    var s = (this.s || this.scale()) * (window.devicePixelRatio || 1), next = null;
    if (direction > 0) next = zooms.filter(function (z) { return z > s + 1e-6; })[0];
    else next = zooms.filter(function (z) { return z < s - 1e-6; }).pop();
    if (next !== undefined && next !== null) this.setZoom(next, port, px, py);
  };

  // Frames region `at` of the change: centred in every pane (the same place in every
  // view, since the state is shared), zoomed to the largest step at which it still fits
  // in half a pane (at least 1 while it fits), so a thin change fills a good part of it.
  Viewer.prototype.showRegion = function (at) {
    var port = this.ports && this.ports[0], n = this.regions.length;
    if (!n || !port) return;
    this.at = ((at % n) + n) % n;
    var r = this.regions[this.at];
    var dpr = window.devicePixelRatio || 1, w = port.clientWidth, h = port.clientHeight;
    var fits = function (share) { return function (z) { return r[2] * z / dpr <= w * share && r[3] * z / dpr <= h * share; }; };
    var zoom = zooms.filter(fits(0.5)).pop() || zooms[0];
    // Below one image pixel per device pixel a one-pixel change fades: zoom 1 while the
    // region still fits the pane.
    if (zoom < 1 && fits(0.9)(1)) zoom = 1;
    this.state.cx = r[0] + r[2] / 2;
    this.state.cy = r[1] + r[3] / 2;
    var label = this.el.querySelector('.region-at');
    if (label) label.textContent = 'region ' + (this.at + 1) + ' of ' + n;
    this.setZoom(zoom);
  };
  Viewer.prototype.stepRegion = function (by) {
    this.showRegion(this.at < 0 ? (by > 0 ? 0 : this.regions.length - 1) : this.at + by);
  };
  Viewer.prototype.findChange = function () { this.showRegion(this.at < 0 ? 0 : this.at); };

  Viewer.prototype.pan = function (dx, dy) {
    if (this.state.zoom === 'fit') {
      // Panning a fitted image: the nearest step that is no larger, then move.
      var shown = this.s * (window.devicePixelRatio || 1);
      this.state.zoom = zooms.filter(function (z) { return z <= shown + 1e-6; }).pop() || zooms[0];
    }
    this.state.cx -= dx / this.s;
    this.state.cy -= dy / this.s;
    this.setZoom(this.state.zoom);
  };

  Viewer.prototype.setRange = function (name, value) {
    if (name === 'wipe') this.state.wipe = value;
    else if (name === 'onion') this.state.onion = value;
    else if (name === 'overlay') this.state.heat = value;
    this.layout();
    this.applyLayers();
  };

  Viewer.prototype.pointAt = function (port, clientX, clientY) {
    var rect = port.getBoundingClientRect(), origin = port.origin || [0, 0];
    return [Math.floor((clientX - rect.left - origin[0]) / this.s), Math.floor((clientY - rect.top - origin[1]) / this.s)];
  };

  Viewer.prototype.readOut = function (port, clientX, clientY) {
    var p = this.pointAt(port, clientX, clientY), x = p[0], y = p[1];
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) { this.readout.textContent = 'outside the image'; return; }
    var e = valueAt(this.images.expected, x, y), a = valueAt(this.images.actual, x, y);
    var text = 'x ' + x + ', y ' + y;
    if (e === null || a === null) text += ' \u00b7 pixel values show when the page is served (popover-goldens review)';
    else {
      if (this.images.expected) text += ' \u00b7 expected ' + e;
      if (this.images.actual) text += ' \u00b7 actual ' + a;
      if (e !== 'outside' && a !== 'outside' && e !== a && this.images.expected && this.images.actual) text += ' \u00b7 differ';
    }
    this.readout.textContent = text;
  };

  function viewerOf(node) {
    var holder = node && node.closest && node.closest('.viewer');
    return holder ? holder.viewerObject : null;
  }
  PG.Viewer = Viewer;
  PG.viewerOf = viewerOf;

  doc.addEventListener('click', function (event) {
    var b = event.target.closest('button');
    var v = viewerOf(b);
    if (!b || !v) return;
    if (b.hasAttribute('data-mode-to')) v.setMode(b.getAttribute('data-mode-to'));
    else if (b.hasAttribute('data-zoom-to')) v.setZoom(b.getAttribute('data-zoom-to'));
    else if (b.hasAttribute('data-layer-to')) v.setLayer(b.getAttribute('data-layer-to'));
    else if (b.hasAttribute('data-region-step')) v.stepRegion(+b.getAttribute('data-region-step'));
  });
  doc.addEventListener('input', function (event) {
    var v = viewerOf(event.target);
    if (v && event.target.hasAttribute('data-range')) v.setRange(event.target.getAttribute('data-range'), +event.target.value);
  });

  // Dragging pans every pane at once; in the wipe view it moves the line.
  var drag = null;
  doc.addEventListener('pointerdown', function (event) {
    var port = event.target.closest && event.target.closest('.viewer .port');
    if (!port || event.button !== 0) return;
    var v = port.viewer;
    drag = { v: v, port: port, x: event.clientX, y: event.clientY };
    if (v.state.mode === 'wipe') wipeTo(v, port, event.clientX);
    event.preventDefault();
  });
  function wipeTo(v, port, clientX) {
    var rect = port.getBoundingClientRect();
    v.setRange('wipe', Math.max(0, Math.min(100, (clientX - rect.left) / rect.width * 100)));
    var input = v.el.querySelector('[data-range="wipe"]');
    if (input) input.value = Math.round(v.state.wipe);
  }
  doc.addEventListener('pointermove', function (event) {
    if (drag && !(event.buttons & 1)) drag = null;
    if (drag) {
      if (drag.v.state.mode === 'wipe') wipeTo(drag.v, drag.port, event.clientX);
      else drag.v.pan(event.clientX - drag.x, event.clientY - drag.y);
      drag.x = event.clientX; drag.y = event.clientY;
    }
    var port = event.target.closest && event.target.closest('.viewer .port');
    if (port && port.viewer) port.viewer.readOut(port, event.clientX, event.clientY);
  });
  doc.addEventListener('pointerup', function () { drag = null; });
  // The wheel zooms at the pointer in focus mode, or anywhere with Ctrl held; otherwise
  // it scrolls the page as usual.
  doc.addEventListener('wheel', function (event) {
    var port = event.target.closest && event.target.closest('.viewer .port');
    if (!port || !(event.ctrlKey || port.closest('#focus'))) return;
    event.preventDefault();
    var rect = port.getBoundingClientRect();
    port.viewer.stepZoom(event.deltaY < 0 ? 1 : -1, port, event.clientX - rect.left, event.clientY - rect.top);
  }, { passive: false });
})();
