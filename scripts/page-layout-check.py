#!/usr/bin/env python3
"""Pages that read right (issue 37 item 4), called by scripts/browser-check.sh and
scripts/browser-check-share.sh: opens each page in headless Chromium at 1400x1000 and at a phone's
390x844 (mobile emulation) over Chromium's DevTools protocol on a pipe (--remote-debugging-pipe;
Python's standard library only), and fails when

- any console message or uncaught error appears;
- the page is wider than the viewport (text to scroll sideways to);
- two pieces of visible text overlap (every text node's boxes, compared pairwise), or a piece of
  text is covered by an element that is not its own (the element the browser hits at three points
  of each text box, the whole page scrolled through, clipped to scrolling panels), or cut off by a
  box that hides its overflow (a label half outside the map);
- the map is not on the first screen, or what the page is about is not inside it: each required
  element (the track, start and end, the live position and its accuracy circle, the devices) must
  exist, lie inside the map's box and not be covered at its centre by anything outside the map;
- without tiles, the note saying how to turn them on is missing (with tiles, present).

    page-layout-check.py [--screenshots DIR] NAME URL REQUIRED [NAME URL REQUIRED ...]

REQUIRED is a comma-separated list of CSS selectors of what must be inside the map, `=SELECTOR`
for what must be on the first screen anywhere, and `tiles` or `no-tiles`. With
--screenshots, DIR gets NAME.png (1400x1000) and NAME-phone.png (390x844) of each page.
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

VIEWPORTS = [("", 1400, 1000, False), ("-phone", 390, 844, True)]

# Runs in the page; returns {"problems": [...], "stats": {...}}.
CHECK = r"""
(async (required) => {
  const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  await frame();
  const force = document.createElement('style');
  force.textContent = '* { pointer-events: auto !important; }';
  document.head.appendChild(force);
  const problems = new Set();
  const vw = document.documentElement.clientWidth, vh = innerHeight;
  const snip = t => JSON.stringify(t.replace(/\s+/g, ' ').trim().slice(0, 48));
  const name = el => {
    if (!el || el === document) return 'nothing';
    let s = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '');
    const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/).slice(0, 2).join('.') : '';
    if (cls) s += '.' + cls;
    const t = (el.textContent || '').trim();
    return t ? s + ' ' + snip(t) : s;
  };
  const stats = {texts: 0, pairs: 0, screens: 0, hiddenLabels: 0, labels: 0};
  if (document.documentElement.scrollWidth > vw + 1) {
    problems.add('the page is ' + document.documentElement.scrollWidth + ' px wide in a ' + vw + ' px viewport');
  }
  const inter = (a, b) => ({left: Math.max(a.left, b.left), top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom)});
  const empty = r => r.right - r.left < 1 || r.bottom - r.top < 1;
  // Each visible text box on this screen: its visible part, or why it is cut.
  const texts = () => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode, el = node.parentElement;
      if (!el || !node.textContent.trim() || el.closest('script, style, noscript, title, template')) continue;
      if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) {
        if (r.width < 2 || r.height < 2) continue;
        let seen = inter(r, {left: 0, top: 0, right: vw, bottom: vh});
        let cut = null;
        for (let a = el; a && a !== document.body; a = a.parentElement) {
          const o = getComputedStyle(a);
          if (o.overflowX === 'visible' && o.overflowY === 'visible') continue;
          const before = seen;
          seen = inter(seen, a.getBoundingClientRect());
          const scrolls = /auto|scroll/.test(o.overflowX + o.overflowY);
          if (!scrolls && !empty(seen) && (seen.right - seen.left < before.right - before.left - 2 ||
              seen.bottom - seen.top < before.bottom - before.top - 2)) cut = a;
        }
        if (empty(seen)) continue;
        out.push({node, el, r, seen, cut});
      }
    }
    return out;
  };
  const related = (a, b) => a === b || a.contains(b) || b.contains(a);
  const step = Math.max(200, vh - 100);
  const height = document.documentElement.scrollHeight;
  for (let y = 0; ; y += step) {
    scrollTo(0, y);
    await frame();
    stats.screens++;
    const list = texts();
    stats.texts += list.length;
    for (const t of list) {
      if (t.cut) problems.add('text ' + snip(t.node.textContent) + ' is cut off by ' + name(t.cut).slice(0, 60));
      const cy = (t.seen.top + t.seen.bottom) / 2;
      const xs = [t.seen.left + 2, (t.seen.left + t.seen.right) / 2, t.seen.right - 2];
      for (const x of xs) {
        const hit = document.elementFromPoint(x, cy);
        if (hit && !related(hit, t.el)) {
          problems.add('text ' + snip(t.node.textContent) + ' (' + name(t.el).split(' ')[0] + ') is covered by ' +
            name(hit).slice(0, 90));
          break;
        }
      }
    }
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const a = list[i], b = list[j];
        if (a.node === b.node) continue;
        stats.pairs++;
        const o = inter(a.seen, b.seen);
        if (o.right - o.left > 1 && o.bottom - o.top > 1) {
          problems.add('text ' + snip(a.node.textContent) + ' overlaps text ' + snip(b.node.textContent));
        }
      }
    }
    if (y + vh >= height) break;
  }
  scrollTo(0, 0);
  await frame();
  const labels = document.querySelectorAll('.leaflet-tooltip');
  stats.labels = labels.length;
  stats.hiddenLabels = document.querySelectorAll('.leaflet-tooltip.label-hidden').length;
  const mapEl = document.querySelector('#map, #devices-map');
  if (mapEl) {
    const m = mapEl.getBoundingClientRect();
    stats.map = [Math.round(m.left), Math.round(m.top), Math.round(m.width), Math.round(m.height)];
    if (m.top > vh - 200 || m.height < 200 || m.width < 200) {
      problems.add('the map is not on the first screen: ' + JSON.stringify(stats.map));
    }
    for (const want of required) {
      if (want === 'tiles' || want === 'no-tiles') {
        const note = document.getElementById('tiles-note');
        if (want === 'no-tiles' && !note) problems.add('no tiles and no note saying how to turn them on');
        if (want === 'tiles' && note) problems.add('tiles are on but the note says there are none');
        if (want === 'tiles' && !document.querySelector('.leaflet-tile-loaded')) problems.add('no tile drawn');
        continue;
      }
      if (want.startsWith('=')) {  // present and on the first screen, anywhere on the page
        const el = document.querySelector(want.slice(1));
        const r = el && el.getBoundingClientRect();
        if (!el || !el.checkVisibility() || r.bottom > vh || r.height < 1) problems.add(want.slice(1) + ' is not on the first screen');
        continue;
      }
      const found = document.querySelectorAll(want);
      stats[want] = found.length;
      if (found.length === 0) { problems.add('nothing matches ' + want); continue; }
      let outside = 0, covered = 0;
      for (const el of found) {
        const r = el.getBoundingClientRect();
        if (r.left < m.left - 1 || r.right > m.right + 1 || r.top < m.top - 1 || r.bottom > m.bottom + 1 ||
            r.bottom > vh + 1) { outside++; continue; }
        const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
        if (!hit || !mapEl.contains(hit)) covered++;
      }
      if (outside) problems.add(outside + ' of ' + found.length + ' ' + want + ' outside the map\'s visible box');
      if (covered) problems.add(covered + ' of ' + found.length + ' ' + want + ' covered by something outside the map');
    }
  } else if (required.length) {
    problems.add('no map on the page');
  }
  force.remove();
  return {problems: Array.from(problems), stats};
})
"""


class Browser:
    """Chromium with its DevTools protocol on fds 3 and 4 (NUL-terminated JSON messages)."""

    def __init__(self):
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if not chromium:
            sys.exit("page layout check: chromium is missing (apt-get install -y chromium)")
        self.profile = tempfile.mkdtemp(prefix="bgtrack-layout-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def fds():  # the pipes' ends become fds 3 and 4 of the child, inherited across exec
            read, write = os.dup(to_browser_r), os.dup(from_browser_w)  # both above 4 now
            os.dup2(read, 3)
            os.dup2(write, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--remote-debugging-pipe",
             "--user-data-dir=" + self.profile, "--no-first-run", "--no-default-browser-check", "about:blank"],
            preexec_fn=fds, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def _read(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed its DevTools pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._read()
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)

    def wait(self, session, predicate, timeout):
        """Waits (reading events) until predicate(event) holds for an event of session."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for event in self.events:
                if event.get("sessionId") == session and predicate(event):
                    return True
            import select
            ready, _, _ = select.select([self.from_browser], [], [], max(0.0, deadline - time.monotonic()))
            if ready:
                self.events.append(self._read())
        return False

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def check(browser, name, url, required, width, height, mobile, shot):
    target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for method in ("Page.enable", "Runtime.enable", "Log.enable"):
        browser.call(method, session=session)
    browser.call("Page.setLifecycleEventsEnabled", {"enabled": True}, session=session)
    browser.call("Emulation.setDeviceMetricsOverride",
                 {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}, session=session)
    if mobile:
        browser.call("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1}, session=session)
    browser.events.clear()
    browser.call("Page.navigate", {"url": url}, session=session)
    idle = browser.wait(session, lambda e: e.get("method") == "Page.lifecycleEvent"
                        and e["params"].get("name") == "networkIdle", 30)
    if not idle:
        return [f"the page did not finish loading in 30 s"], {}
    time.sleep(0.3)
    result = browser.call("Runtime.evaluate", {
        "expression": CHECK + "(" + json.dumps(required) + ")", "awaitPromise": True, "returnByValue": True},
        session=session)
    if "exceptionDetails" in result:
        return [f"the check script failed: {result['exceptionDetails']}"], {}
    value = result["result"]["value"]
    problems = value["problems"]
    for event in browser.events:
        if event.get("sessionId") != session:
            continue
        method = event.get("method")
        if method == "Runtime.consoleAPICalled":
            args = " ".join(str(a.get("value", a.get("description", ""))) for a in event["params"]["args"])
            problems.append(f"console.{event['params']['type']}: {args}")
        elif method == "Runtime.exceptionThrown":
            problems.append(f"uncaught: {event['params']['exceptionDetails'].get('text')}")
        elif method == "Log.entryAdded":
            entry = event["params"]["entry"]
            if entry.get("url", "").endswith("/favicon.ico"):
                continue  # the browser asks for it on its own; the pages have none
            problems.append(f"console ({entry['source']}, {entry['level']}): {entry['text']}")
    if shot:
        data = browser.call("Page.captureScreenshot", {"format": "png"}, session=session)["data"]
        with open(shot, "wb") as f:
            f.write(base64.b64decode(data))
    browser.call("Target.closeTarget", {"targetId": target})
    return problems, value["stats"]


def main(argv):
    shots = None
    if argv[:1] == ["--screenshots"]:
        shots, argv = argv[1], argv[2:]
        os.makedirs(shots, exist_ok=True)
    if not argv or len(argv) % 3:
        sys.exit(__doc__)
    pages = [(argv[i], argv[i + 1], [s for s in argv[i + 2].split(",") if s]) for i in range(0, len(argv), 3)]
    browser = Browser()
    failed = 0
    try:
        for name, url, required in pages:
            for suffix, width, height, mobile in VIEWPORTS:
                shot = os.path.join(shots, name + suffix + ".png") if shots else None
                problems, stats = check(browser, name, url, required, width, height, mobile, shot)
                subjects = ", ".join(f"{k} {v}" for k, v in stats.items() if k.startswith((".", "#")))
                print(f"  {name} at {width}x{height}: {stats.get('texts', 0)} text boxes on {stats.get('screens', 0)} "
                      f"screens, {stats.get('pairs', 0)} pairs compared, labels {stats.get('labels', 0)} "
                      f"({stats.get('hiddenLabels', 0)} hidden), map {stats.get('map')}; {subjects}; "
                      f"{len(problems)} problems" + (f"; wrote {shot}" if shot else ""), flush=True)
                for problem in problems:
                    print(f"    {name}{suffix}: {problem}", file=sys.stderr, flush=True)
                failed += bool(problems)
    finally:
        browser.close()
    if failed:
        sys.exit(f"page layout check: {failed} page views with problems")


if __name__ == "__main__":
    main(sys.argv[1:])
