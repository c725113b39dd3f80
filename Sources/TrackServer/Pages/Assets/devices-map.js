// The devices page's map (devices.js): each device's last position, green online, red offline,
// its name beside it and a popup linking to its day.
(function () {
  const map = L.map('devices-map');
  if (TILES) L.tileLayer(TILES, {maxZoom: 19}).addTo(map);
  bgtrackLayout(map, TILES);
  const esc = s => String(s).replace(/[&<>"']/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;',
    '"': '&quot;', "'": '&#39;'}[c]));
  if (DEVICES.length === 0) { map.setView([0, 0], 1); return; }
  DEVICES.forEach(d => {
    L.circleMarker([d.lat, d.lon], {radius: 9, weight: 2, color: '#fff', fillOpacity: 1,
      fillColor: d.status === 'online' ? '#2ec27e' : '#c01c28', className: 'device-marker ' + d.status})
      .bindTooltip(esc(d.name) + ' (' + esc(d.status) + ')', {permanent: true, direction: 'right'})
      .bindPopup('<a href="' + esc(d.href) + '">' + esc(d.name) + '</a><br>' + esc(d.status) +
        '<br>last sample ' + esc(d.seen)).addTo(map);
  });
  bgtrackFit(map, L.latLngBounds(DEVICES.map(d => [d.lat, d.lon])), 15);
})();
