// The map page's script when Leaflet is served (leaflet-map.js): pan and zoom, optional tiles, the
// track coloured by time of day, dashed gaps labelled with their durations, start and end markers, a
// popup per point. Reads MAP (MapData) from the page; needs nothing from the network but this
// server (and the tile server, when the operator configured one).
(function () {
  const map = L.map('map', {preferCanvas: false});
  window.BGTRACK_MAP = map;  // the timeline panel (timeline.js) draws on it
  if (MAP.tileURL) {
    L.tileLayer(MAP.tileURL, {maxZoom: 19, className: 'bgtrack-tiles',
      attribution: 'tiles: ' + new URL(MAP.tileURL.replace(/[{}]/g, ''), location.href).host}).addTo(map);
  }
  bgtrackLayout(map, MAP.tileURL);
  const points = MAP.segments.flat();
  const details = MAP.details.flat();
  if (points.length === 0) {
    map.setView([0, 0], 2);
    const empty = L.control({position: 'topright'});
    empty.onAdd = () => {
      const d = L.DomUtil.create('div', 'legend');
      d.id = 'empty';
      d.textContent = 'No samples on ' + MAP.day + ' (' + MAP.zone + '). Pick another day.';
      return d;
    };
    empty.addTo(map);
    return;
  }
  const local = ms => zoneLocal(MAP.offsets, ms);
  const fmt = ms => local(ms).toISOString().replace('T', ' ').slice(0, 19) + ' ' + zoneLabel(MAP.offsets, ms);
  // Time of day as a hue: night blue, morning green, afternoon orange, evening purple.
  const hue = h => 'hsl(' + Math.round((220 + h * 15) % 360) + ', 75%, 42%)';
  const colour = ms => hue(local(ms).getUTCHours() + local(ms).getUTCMinutes() / 60);
  const esc = s => String(s).replace(/[&<>"']/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;',
    '"': '&quot;', "'": '&#39;'}[c]));
  const popup = (p, d) => {
    const rows = [['time', fmt(p[2])], ['position', p[0].toFixed(5) + ', ' + p[1].toFixed(5)]];
    if (p[3] >= 0) rows.push(['accuracy', p[3].toFixed(0) + ' m']);
    if (p[6] >= 0) rows.push(['vertical accuracy', p[6].toFixed(0) + ' m']);
    if (p[4] >= 0) rows.push(['speed', (p[4] * 3.6).toFixed(1) + ' km/h']);
    if (p[5] >= 0) rows.push(['battery', Math.round(p[5] * 100) + ' %']);
    if (d && d[0]) rows.push(['trigger', d[0]]);
    if (d && d[1]) rows.push(['app state', d[1]]);
    return '<table class="popup-table">' + rows.map(r => '<tr><td>' + esc(r[0]) + '</td><td><b>' +
      esc(r[1]) + '</b></td></tr>').join('') + '</table>';
  };
  if (MAP.live) {
    // A live share: the newest position as a marker with its time, its accuracy as a circle,
    // the map fitted to the circle (at least 100 m across, at most zoom 17).
    const p = points[points.length - 1];
    const where = L.latLng(p[0], p[1]);
    if (p[3] > 0) {
      L.circle(where, {radius: p[3], color: '#1a5fb4', weight: 1, fillOpacity: 0.15,
        className: 'live-accuracy'}).addTo(map);
    }
    L.circleMarker(where, {radius: 9, color: '#fff', weight: 3, fillColor: '#1a5fb4', fillOpacity: 1,
      className: 'live-marker'}).bindPopup(popup(p, details[details.length - 1]))
      .bindTooltip(fmt(p[2]) + (p[3] >= 0 ? ', ±' + Math.round(p[3]) + ' m' : ''),
        {permanent: true, direction: 'top', offset: [0, -10], className: 'live-label'}).addTo(map);
    L.control.scale({metric: true, imperial: false}).addTo(map);
    bgtrackFit(map, where.toBounds(Math.max(100, 4 * p[3])), 17);
    return;
  }
  MAP.segments.forEach((seg, i) => {
    for (let k = 1; k < seg.length; k++) {
      L.polyline([[seg[k - 1][0], seg[k - 1][1]], [seg[k][0], seg[k][1]]],
        {color: colour(seg[k][2]), weight: 4, className: 'track-seg'}).addTo(map);
    }
    if (i > 0) {
      const prev = MAP.segments[i - 1][MAP.segments[i - 1].length - 1];
      const gap = L.polyline([[prev[0], prev[1]], [seg[0][0], seg[0][1]]],
        {color: '#c01c28', weight: 2.5, dashArray: '8 6', className: 'gap'}).addTo(map);
      // The label: duration and times, then the phone's reasons (on a narrow map only while
      // the pointer is on the gap; the list beside or below the map has them all).
      const base = 'gap ' + dur((seg[0][2] - prev[2]) / 1000) + ' (' + fmt(prev[2]).slice(11, 16) + '–' +
        fmt(seg[0][2]).slice(11, 16) + ')';
      const label = document.createElement('span');
      label.textContent = base;
      const why = document.createElement('span');
      why.className = 'gap-why';
      why.textContent = gapText(prev[2], seg[0][2], base).slice(base.length);
      label.appendChild(why);
      gap.bindTooltip(label, {permanent: true, direction: 'center', className: 'gap-label'});
    }
  });
  points.forEach((p, i) => {
    L.circleMarker([p[0], p[1]], {radius: 3, color: '#1a5fb4', weight: 1, fillColor: '#fff', fillOpacity: 1,
      className: 'track-point'}).bindPopup(popup(p, details[i])).addTo(map);
  });
  (MAP.excluded || []).forEach((p, i) => {
    L.circleMarker([p[0], p[1]], {radius: 5, color: '#77767b', weight: 1.5, dashArray: '2 2', fillOpacity: 0,
      className: 'excluded-marker'}).bindPopup('<b>excluded</b>: ' + MAP.excludedRules[i] + '<br>' + fmt(p[2]) +
      (p[3] >= 0 ? '<br>accuracy ' + Math.round(p[3]) + ' m' : '')).addTo(map);
  });
  const first = points[0], last = points[points.length - 1];
  L.circleMarker([first[0], first[1]], {radius: 8, color: '#fff', weight: 2, fillColor: '#2ec27e',
    fillOpacity: 1, className: 'start-marker'}).bindPopup('<b>start</b><br>' + popup(first, details[0])).addTo(map);
  L.circleMarker([last[0], last[1]], {radius: 8, color: '#fff', weight: 2, fillColor: '#c01c28',
    fillOpacity: 1, className: 'end-marker'}).bindPopup('<b>end</b><br>' + popup(last, details[details.length - 1]))
    .addTo(map);
  L.control.scale({metric: true, imperial: false}).addTo(map);
  const legend = L.control({position: 'bottomright'});
  legend.onAdd = () => {
    const d = L.DomUtil.create('div', 'legend time-legend');
    d.innerHTML = [0, 6, 12, 18].map(h => '<span class="item"><i style="background:' +
      hue(h) + '"></i>' + h + ':00</span>').join('<br>') +
      '<br><span class="item"><i style="background:#c01c28"></i>gap</span>';
    return d;
  };
  legend.addTo(map);
  bgtrackFit(map, L.latLngBounds(points.map(p => [p[0], p[1]])), 17);
})();
