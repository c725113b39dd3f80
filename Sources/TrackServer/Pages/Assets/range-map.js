// The range map (range-map.js, Leaflet): draws the embedded first answer, one line per segment with
// the gaps dashed between them, and asks /v1/devices/{id}/map again at the map's zoom when the user
// zooms in beyond the detail it has (points within about a pixel, every point at the end). The
// excluded points are markers behind a checkbox. When the track is drawn and a first popup event
// handled, it sets data-interactive-ms on the body (milliseconds since navigation start, the
// browser check reads it) and a bgtrack-interactive performance mark.
(function () {
  const map = L.map('map');
  if (MAP.tileURL) {
    L.tileLayer(MAP.tileURL, {maxZoom: 19, className: 'bgtrack-tiles',
      attribution: 'tiles: ' + new URL(MAP.tileURL.replace(/[{}]/g, ''), location.href).host}).addTo(map);
  }
  bgtrackLayout(map, MAP.tileURL);
  const token = new URLSearchParams(location.search).get('token');
  const track = L.layerGroup().addTo(map);
  const excluded = L.layerGroup();
  const fmt = ms => zoneLocal(MAP.offsets, ms).toISOString().replace('T', ' ').slice(0, 16) + ' '
    + zoneLabel(MAP.offsets, ms);
  const decode = text => {
    const out = [];
    let i = 0, lat = 0, lon = 0;
    const next = () => {
      let shift = 0, result = 0, b;
      do { b = text.charCodeAt(i++) - 63; result |= (b & 31) << shift; shift += 5; } while (b >= 32);
      return (result & 1) ? ~(result >> 1) : (result >> 1);
    };
    while (i < text.length) { lat += next(); lon += next(); out.push([lat / 1e5, lon / 1e5]); }
    return out;
  };
  let body = MAP.body;
  let first = null;
  const draw = () => {
    track.clearLayers();
    excluded.clearLayers();
    first = null;
    let previous = null;
    const bounds = L.latLngBounds([]);
    body.segments.forEach(s => {
      const points = decode(s.line);
      if (points.length === 0) return;
      if (previous) {
        L.polyline([previous, points[0]], {color: '#c01c28', weight: 1.5, dashArray: '6 6',
          className: 'gap'}).addTo(track);
      }
      const line = points.length > 1
        ? L.polyline(points, {color: '#1a5fb4', weight: 3, className: 'track-seg'})
        : L.circleMarker(points[0], {radius: 3, color: '#1a5fb4', className: 'track-seg'});
      line.bindPopup(fmt(s.start) + ' – ' + fmt(s.end)).addTo(track);
      if (!first) first = line;
      points.forEach(p => bounds.extend(p));
      previous = points[points.length - 1];
    });
    body.excluded.forEach(p => {
      L.circleMarker([p.lat, p.lon], {radius: 5, color: '#c01c28', fillColor: '#fff', fillOpacity: 1,
        className: 'excluded-marker'}).bindPopup('<b>excluded</b>: ' + p.rule + '<br>' + fmt(p.t) +
        (p.acc != null ? '<br>accuracy ' + Math.round(p.acc) + ' m' : '')).addTo(excluded);
    });
    document.getElementById('summary').textContent = body.points + ' points drawn' +
      (body.exact ? ' (every point)' : ' (zoom ' + body.zoom + ' detail)') + ', ' + body.segments.length +
      ' segments';
    return bounds;
  };
  const bounds = draw();
  L.control.scale({metric: true, imperial: false}).addTo(map);
  if (bounds.isValid()) bgtrackFit(map, bounds, 18); else map.setView([0, 0], 2);
  const box = document.getElementById('show-excluded');
  box.addEventListener('change', () => box.checked ? excluded.addTo(map) : excluded.remove());
  let asked = 0;
  map.on('zoomend', () => {
    const zoom = Math.min(20, Math.round(map.getZoom()) + 1);
    if (body.exact || zoom <= body.zoom) return;
    const ask = ++asked;
    const query = 'from=' + body.from + '&to=' + body.to + '&zoom=' + zoom;
    fetch('/v1/devices/' + encodeURIComponent(MAP.device) + '/map?' + query,
      {headers: token ? {Authorization: 'Bearer ' + token} : {}})
      .then(r => r.ok ? r.json() : null)
      .then(answer => { if (answer && ask === asked) { body = answer; draw(); } });
  });
  // Interactive: the track drawn, a frame shown, and a popup event handled.
  map.once('popupopen', () => {
    performance.mark('bgtrack-interactive');
    document.body.dataset.interactiveMs = String(Math.round(performance.now()));
    map.closePopup();
  });
  requestAnimationFrame(() => requestAnimationFrame(() => {
    if (first) first.openPopup(); else document.body.dataset.interactiveMs = String(Math.round(performance.now()));
  }));
})();
