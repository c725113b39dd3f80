// What every Leaflet map page shares (issue 37 item 4): a note in the map saying how to turn tiles
// on when the server has none, and labels placed without covering each other. Every permanent label
// (gap, stay, live position, device name) is tried where Leaflet puts it, then one and two label
// heights up or down, each also pulled inside the map; the first place inside the map and clear of
// the controls and of the labels placed before it wins, in the order live position, gap, stay,
// other. A label with no such place is hidden and shows while the pointer is on its line or circle.
// Placed again after every zoom, move and resize. Part of leaflet-map.js, range-map.js and devices.js.
// The note that says how to get streets, when the server has no tile URL.
function bgtrackTilesNote(map, tileURL) {
  if (tileURL) return;
  const note = L.control({position: 'topright'});
  note.onAdd = () => {
    const d = L.DomUtil.create('div', 'legend tiles-note');
    d.id = 'tiles-note';
    d.appendChild(document.createTextNode('No street map: the server has no tiles. To show streets, start it with '));
    const code = document.createElement('code');
    code.textContent = '--tile-url URL';
    d.appendChild(code);
    d.appendChild(document.createTextNode(' (a {z}/{x}/{y} tile server).'));
    return d;
  };
  note.addTo(map);
}
// Every permanent label clear of the others, of the controls and of the map's edges.
function bgtrackDeclutter(map) {
  const container = map.getContainer();
  const box = container.getBoundingClientRect();
  const rank = el => { const i = ['live-label', 'gap-label', 'stay-label'].findIndex(c => el.classList.contains(c));
    return i < 0 ? 3 : i; };
  const labels = [];
  map.eachLayer(layer => {
    const tip = layer.getTooltip && layer.getTooltip();
    const el = tip && tip.options.permanent && (tip.getElement ? tip.getElement() : tip._container);
    if (!el || !el.isConnected) return;
    if (!layer._bgtrackHover) {
      layer._bgtrackHover = true;
      layer.on('mouseover', () => el.classList.add('label-hover'));
      layer.on('mouseout', () => el.classList.remove('label-hover'));
    }
    el.style.translate = '';
    el.classList.remove('label-hidden');
    labels.push(el);
  });
  labels.sort((a, b) => rank(a) - rank(b));
  const taken = Array.from(container.querySelectorAll('.leaflet-control'))
    .map(c => c.getBoundingClientRect()).filter(r => r.width > 0 && r.height > 0);
  const clear = r => r.left >= box.left && r.right <= box.right && r.top >= box.top && r.bottom <= box.bottom &&
    !taken.some(t => r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom);
  labels.forEach(el => {
    const r = el.getBoundingClientRect();
    const pull = Math.max(box.left - r.left, Math.min(0, box.right - r.right));
    const step = r.height + 2;
    for (const dy of [0, -step, step, -2 * step, 2 * step]) {
      for (const dx of pull ? [0, pull] : [0]) {
        const s = {left: r.left + dx, right: r.right + dx, top: r.top + dy, bottom: r.bottom + dy};
        if (clear(s)) {
          el.style.translate = dx || dy ? dx + 'px ' + dy + 'px' : '';
          taken.push(s);
          return;
        }
      }
    }
    el.classList.add('label-hidden');
  });
}
// fitBounds clear of the controls: the track neither under the note nor under the legend.
function bgtrackFit(map, bounds, maxZoom) {
  const corner = side => Math.max(0, ...Array.from(map.getContainer()
    .querySelectorAll('.leaflet-' + side + ' .leaflet-control')).map(c => c.offsetTop + c.offsetHeight));
  map.fitBounds(bounds, {paddingTopLeft: [30, 20 + corner('top')],
    paddingBottomRight: [30, 20 + corner('bottom')], maxZoom: maxZoom});
}
function bgtrackLayout(map, tileURL) {
  bgtrackTilesNote(map, tileURL);
  const run = () => bgtrackDeclutter(map);
  map.on('zoomend moveend resize', run);
  if (document.readyState === 'complete') run(); else window.addEventListener('load', run);
}
