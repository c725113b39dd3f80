// The map page's timeline panel (timeline.js): the day's stays, trips and gaps listed beside the
// track and, on the Leaflet map, stays drawn as circles of their radius labelled with their times,
// trips as straight lines coloured by mode (stays purple, gaps red), unexplained gaps named as such;
// the upload delays (points that arrived late) listed apart, under their own heading. Reads TIMELINE
// from the page's timeline-data block.
(function () {
  const box = document.getElementById('timeline');
  if (!box) return;
  const panels = document.getElementById('panels');
  if (panels) panels.prepend(box);  // beside the map (below it on a phone), never over it
  const modeColour = {still: '#77767b', walking: '#26a269', cycling: '#e5a50a', vehicle: '#1c71d8'};
  const hm = ms => zoneLocal(TIMELINE.offsets, ms).toISOString().slice(11, 16);
  const km = m => m >= 1000 ? (m / 1000).toFixed(1) + ' km' : Math.round(m) + ' m';
  const title = document.createElement('h2');
  title.textContent = 'Timeline (' + TIMELINE.zone + ')';
  box.appendChild(title);
  const list = document.createElement('ul');
  box.appendChild(list);
  if (TIMELINE.entries.length === 0) {
    const li = document.createElement('li');
    li.textContent = 'No stays or trips on this day.';
    list.appendChild(li);
  }
  const map = window.BGTRACK_MAP;
  TIMELINE.entries.forEach(e => {
    const li = document.createElement('li');
    li.className = 'entry ' + e.type;
    const span = hm(e.start) + '–' + hm(e.end) + ' ';
    const seconds = (e.end - e.start) / 1000;
    if (e.type === 'stay') {
      li.style.setProperty('--c', '#613583');
      li.textContent = span + 'stay ' + dur(seconds) + (e.inferred ? ' (inferred across a gap)' : '') +
        (e.open ? ' (ongoing)' : '');
      if (map) {
        L.circle([e.lat, e.lon], {radius: Math.max(25, e.radius_m), color: '#613583', weight: 2,
          fillOpacity: 0.15, dashArray: e.inferred ? '4 4' : null, className: 'timeline-stay'})
          .bindTooltip(hm(e.start) + '–' + hm(e.end), {permanent: true, direction: 'top',
            className: 'stay-label'}).addTo(map);
      }
    } else if (e.type === 'trip') {
      const colour = modeColour[e.mode] || '#333';
      li.style.setProperty('--c', colour);
      li.textContent = span + e.mode + ' ' + km(e.distance_m) + ', ' + dur(seconds) +
        (e.open ? ' (ongoing)' : '');
      if (map) {
        L.polyline([e.from, e.to], {color: colour, weight: 6, opacity: 0.55, className: 'timeline-trip'})
          .bindTooltip(e.mode + ' ' + km(e.distance_m)).addTo(map);
      }
    } else {
      li.style.setProperty('--c', '#c01c28');
      li.textContent = span + 'gap ' + dur(seconds) + ', ' + (e.explained
        ? (e.reasons || []).map(r => r.reason + (r.detail ? ' (' + r.detail + ')' : '')).join(', ')
        : 'unexplained');
    }
    list.appendChild(li);
  });
  // Upload delays: the phone sampled, its points arrived late. Apart from the entries.
  const delays = TIMELINE.delays || [];
  if (delays.length) {
    const heading = document.createElement('h3');
    heading.textContent = 'Uploads that waited (points arrived late)';
    box.appendChild(heading);
    const late = document.createElement('ul');
    delays.forEach(d => {
      const li = document.createElement('li');
      li.className = 'entry delay';
      li.style.setProperty('--c', '#1c71d8');
      li.textContent = hm(d.start) + '–' + hm(d.end) + ' ' + d.reason + (d.detail ? ' (' + d.detail + ')' : '');
      late.appendChild(li);
    });
    box.appendChild(late);
  }
})();
