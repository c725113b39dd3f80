/// The map page's gap reasons (issue 24 item 3): a function the map scripts call to label a
/// dashed gap with the phone's reasons, and the list of every reported interval under the map.
/// Part of `map.js` and `leaflet-map.js` (served, never inline); it reads `MAP.gaps`, the
/// ``GapBody`` values, and writes only text nodes.
enum GapScript {
    static let css = """
        #gaps { padding: 8px 12px; font-size: 12px; border-bottom: 1px solid #ddd; }
        #gaps h2 { font-size: 14px; margin: 0 0 4px; }
        #gaps li.stop { color: #c01c28; }
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
          if (!GAPS.length) return;
          const box = document.createElement('section');
          box.id = 'gaps';
          const title = document.createElement('h2');
          title.textContent = 'Why the phone took no samples (as it reported)';
          box.appendChild(title);
          const list = document.createElement('ul');
          GAPS.forEach(g => {
            const item = document.createElement('li');
            item.className = g.no_samples ? 'stop' : 'slow';
            item.textContent = g.label;
            list.appendChild(item);
          });
          box.appendChild(list);
          (document.getElementById('panels') || document.body).appendChild(box);
        })();

        """
}
