// The map page's gap reasons (issue 24 item 3): gapText labels a dashed gap with the phone's
// sampling reasons; under the map two lists: every reported sampling gap, and apart from them the
// upload delays (issue 37 item 3), which never label a dashed gap. Reads MAP.gaps and MAP.delays
// (GapBody) and writes only text nodes. Part of map.js and leaflet-map.js.
const GAPS = MAP.gaps || [];
// The reported intervals that overlap a gap between two samples (ms), in words, after `base`.
function gapText(a, b, base) {
  const found = GAPS.filter(g => g.start < b && g.end > a).map(g => g.label);
  return found.length ? base + ' — ' + found.join(' | ') : base;
}
(function () {
  const delays = MAP.delays || [];
  if (!GAPS.length && !delays.length) return;
  const box = document.createElement('section');
  box.id = 'gaps';
  function addList(heading, id, items, className) {
    const title = document.createElement('h2');
    title.textContent = heading;
    box.appendChild(title);
    const list = document.createElement('ul');
    list.id = id;
    items.forEach(g => {
      const item = document.createElement('li');
      item.className = className(g);
      item.textContent = g.label;
      list.appendChild(item);
    });
    box.appendChild(list);
  }
  if (GAPS.length) {
    addList('Why the phone took no samples (as it reported)', 'sampling-gaps', GAPS,
      g => g.no_samples ? 'stop' : 'slow');
  }
  if (delays.length) {
    addList('Uploads that waited: sampled, arrived late (as the phone reported)', 'upload-delays', delays,
      () => 'delay');
  }
  (document.getElementById('panels') || document.body).appendChild(box);
})();
