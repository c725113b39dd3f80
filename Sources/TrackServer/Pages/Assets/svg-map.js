// The map page without Leaflet (map.js): plain SVG, Web-Mercator, no library, no network.
(function () {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.getElementById('svg');
  const tip = document.getElementById('tip');
  const W = svg.clientWidth || 960, H = svg.clientHeight || 600, PAD = 40;
  svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
  const el = (name, attrs, parent) => {
    const node = document.createElementNS(NS, name);
    for (const k in attrs) node.setAttribute(k, attrs[k]);
    (parent || svg).appendChild(node);
    return node;
  };
  // Web-Mercator world coordinates of a 256-pixel world at zoom 0.
  const mx = lon => (lon + 180) / 360 * 256;
  const my = lat => {
    const s = Math.sin(Math.max(-85.05, Math.min(85.05, lat)) * Math.PI / 180);
    return (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * 256;
  };
  const points = MAP.segments.flat();
  for (let x = 0; x < W; x += 64) el('line', {x1: x, y1: 0, x2: x, y2: H, class: 'grid'});
  for (let y = 0; y < H; y += 64) el('line', {x1: 0, y1: y, x2: W, y2: y, class: 'grid'});
  if (points.length === 0) {
    el('text', {x: W / 2, y: H / 2, 'text-anchor': 'middle', class: 'empty'}).textContent =
      'No samples on ' + MAP.day + ' (' + MAP.zone + '). Pick another day.';
    return;
  }
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (const p of points) {
    x0 = Math.min(x0, mx(p[1])); x1 = Math.max(x1, mx(p[1]));
    y0 = Math.min(y0, my(p[0])); y1 = Math.max(y1, my(p[0]));
  }
  let zoom = Math.log2(Math.min((W - 2 * PAD) / Math.max(x1 - x0, 1e-9), (H - 2 * PAD) / Math.max(y1 - y0, 1e-9)));
  zoom = Math.min(zoom, 18);
  if (MAP.tileURL) zoom = Math.floor(zoom);
  const scale = Math.pow(2, zoom);
  const cx = (x0 + x1) / 2 * scale - W / 2, cy = (y0 + y1) / 2 * scale - H / 2;
  const px = p => [mx(p[1]) * scale - cx, my(p[0]) * scale - cy];
  if (MAP.tileURL) {
    const z = zoom, n = Math.pow(2, z);
    for (let tx = Math.floor(cx / 256); tx * 256 < cx + W; tx++) {
      for (let ty = Math.floor(cy / 256); ty * 256 < cy + H; ty++) {
        if (ty < 0 || ty >= n) continue;
        const url = MAP.tileURL.replace('{z}', z).replace('{x}', ((tx % n) + n) % n).replace('{y}', ty);
        el('image', {href: url, x: tx * 256 - cx, y: ty * 256 - cy, width: 256, height: 256});
      }
    }
  }
  const fmt = ms => zoneLocal(MAP.offsets, ms).toISOString().replace('T', ' ').slice(0, 19)
    + ' ' + zoneLabel(MAP.offsets, ms);
  MAP.segments.forEach((seg, i) => {
    el('polyline', {class: 'seg', points: seg.map(p => px(p).join(',')).join(' ')});
    if (i > 0) {
      const prev = MAP.segments[i - 1][MAP.segments[i - 1].length - 1];
      const a = px(prev), b = px(seg[0]);
      el('line', {class: 'gap', x1: a[0], y1: a[1], x2: b[0], y2: b[1]});
      el('text', {class: 'gaplabel', x: (a[0] + b[0]) / 2 + 6, y: (a[1] + b[1]) / 2 - 6}).textContent =
        gapText(prev[2], seg[0][2], 'gap ' + dur((seg[0][2] - prev[2]) / 1000));
    }
  });
  for (const p of points) {
    const [x, y] = px(p);
    const c = el('circle', {class: 'pt', cx: x, cy: y, r: 2.5});
    const text = fmt(p[2]) + '\n' + p[0].toFixed(5) + ', ' + p[1].toFixed(5) +
      (p[3] >= 0 ? '\naccuracy ' + p[3].toFixed(0) + ' m' : '');
    el('title', {}, c).textContent = text;
    c.addEventListener('mouseenter', () => {
      tip.textContent = text; tip.style.display = 'block';
      tip.style.left = (x + 10) + 'px'; tip.style.top = (y + 10) + 'px';
    });
    c.addEventListener('mouseleave', () => { tip.style.display = 'none'; });
  }
  (MAP.excluded || []).forEach((p, i) => {
    const [x, y] = px(p);
    if (!(x >= 0 && x <= W && y >= 0 && y <= H)) return;
    const c = el('circle', {class: 'excluded-marker', cx: x, cy: y, r: 4, fill: 'none', stroke: '#77767b',
      'stroke-dasharray': '2 2'});
    el('title', {}, c).textContent = 'excluded: ' + MAP.excludedRules[i] + ' ' + fmt(p[2]);
  });
  const first = px(points[0]), last = px(points[points.length - 1]);
  el('circle', {class: 'end', cx: first[0], cy: first[1], r: 7, fill: '#2ec27e'}).appendChild(
    document.createElementNS(NS, 'title')).textContent = 'start ' + fmt(points[0][2]);
  el('circle', {class: 'end', cx: last[0], cy: last[1], r: 7, fill: '#c01c28'}).appendChild(
    document.createElementNS(NS, 'title')).textContent = 'end ' + fmt(points[points.length - 1][2]);
  // Scale bar: metres per pixel at the centre latitude, rounded to 1, 2 or 5 x 10^n.
  const centreLat = Math.atan(Math.sinh(Math.PI * (1 - 2 * ((cy + H / 2) / scale) / 256))) * 180 / Math.PI;
  const mpp = 2 * Math.PI * 6378137 * Math.cos(centreLat * Math.PI / 180) / (256 * scale);
  let metres = Math.pow(10, Math.floor(Math.log10(mpp * 150)));
  for (const f of [5, 2, 1]) { if (metres * f <= mpp * 150) { metres *= f; break; } }
  const len = metres / mpp;
  const g = el('g', {class: 'scale', id: 'scalebar'});
  el('rect', {x: 12, y: H - 44, width: len + 24, height: 32, rx: 4}, g);
  el('line', {x1: 24, y1: H - 20, x2: 24 + len, y2: H - 20}, g);
  el('line', {x1: 24, y1: H - 26, x2: 24, y2: H - 14}, g);
  el('line', {x1: 24 + len, y1: H - 26, x2: 24 + len, y2: H - 14}, g);
  el('text', {x: 24, y: H - 28, 'font-size': 12}, g).textContent =
    metres >= 1000 ? (metres / 1000) + ' km' : metres + ' m';
})();
