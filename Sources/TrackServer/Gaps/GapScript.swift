/// The map page's gap reasons (issue 24 item 3): a function the map scripts call to label a
/// dashed gap with the phone's sampling reasons, and under the map two lists: every reported
/// sampling gap, and apart from them the upload delays (issue 37 item 3: the phone sampled, its
/// points arrived late), which never label a dashed gap. Part of `map.js` and `leaflet-map.js`
/// (served, never inline); it reads `MAP.gaps` (``GapBody``) and `MAP.delays`
/// (``GapBody``), and writes only text nodes.
enum GapScript {
    static let css = """
        #gaps { padding: 8px 12px; font-size: 12px; border-bottom: 1px solid #ddd; }
        #gaps h2 { font-size: 14px; margin: 0 0 4px; }
        #gaps li.stop { color: #c01c28; }
        #gaps li.delay { color: #1c71d8; }
        #gaps ul { margin: 0; padding-left: 18px; }

        """

    static let javascript = """
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

        """
}
