#!/usr/bin/env python3
"""The peer's stays on real GPS traces, for `bgtrack-bench timeline --real` (docs/timeline-evaluation.md).

Reads a GeoLife-layout folder (one folder per person, `NNN/Trajectory/*.plt`, as Microsoft
Research's GeoLife 1.3 and trackintel's test subset lay it out) with trackintel's own reader, and
writes, per person, the stays trackintel's sliding staypoint detector (Li et al. 2008, as published
in trackintel: Martin et al. 2023, CEUS) finds:

- `reference`: on the full-rate fixes, 100 m / 10 min, its default 15-minute gap threshold: the
  truth the bench scores against;
- `bridged`: the same, allowed to bridge a silence whose two ends are within 100 m of each other
  (the logger stopped indoors: the silence is filled with copies of the last fix, every 5 minutes,
  before trackintel runs), as our timeline infers a stay across such a silence;
- `sub120`, `sub180` (and their `_bridged` twins): the peer on the points the phone would send,
  one fix per 120 s or 180 s (the first fix, then each fix at least that long after the last one
  kept: the rule the bench uses for our paths).

Usage: python3 scripts/peer-stays.py DIR OUT.json
Needs: pip install trackintel==1.4.2 (PyPI; pandas, geopandas, shapely come with it).
"""

import json
import math
import sys

import geopandas as gpd
import pandas as pd
import trackintel as ti
from shapely.geometry import Point

DIST = 100
MINUTES = 10
GAP_MINUTES = 15


def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * 6371000 * math.asin(min(1, math.sqrt(a)))


def bridged(pfs):
    """The fixes with every same-place silence (over GAP_MINUTES, ends within DIST) filled in."""
    times = list(pfs["tracked_at"])
    lats = list(pfs.geometry.y)
    lons = list(pfs.geometry.x)
    rows = []
    for index in range(1, len(times)):
        silence = times[index] - times[index - 1]
        if silence > pd.Timedelta(minutes=GAP_MINUTES) and haversine(
            lats[index - 1], lons[index - 1], lats[index], lons[index]
        ) <= DIST:
            t = times[index - 1] + pd.Timedelta(minutes=5)
            while t < times[index]:
                rows.append({"user_id": pfs["user_id"].iloc[0], "tracked_at": t, "geom": Point(lons[index - 1], lats[index - 1])})
                t += pd.Timedelta(minutes=5)
    if not rows:
        return pfs
    filled = gpd.GeoDataFrame(rows, geometry="geom", crs=pfs.crs)
    both = pd.concat([pfs[["user_id", "tracked_at", "geom"]], filled], ignore_index=True)
    both = both.sort_values("tracked_at", kind="stable").reset_index(drop=True)
    both.index.name = "id"
    return ti.Positionfixes(gpd.GeoDataFrame(both, geometry="geom", crs=pfs.crs))


def stays(pfs, gap):
    if len(pfs) < 2:
        return []
    found = pfs.generate_staypoints(
        method="sliding",
        distance_metric="haversine",
        dist_threshold=DIST,
        time_threshold=MINUTES,
        gap_threshold=gap,
        include_last=True,
        print_progress=False,
        n_jobs=1,
    )[1]
    out = []
    found = found.sort_values("started_at")
    for start, end, point in zip(found["started_at"], found["finished_at"], found.geometry):
        out.append(
            {
                "start": int(start.timestamp() * 1000),
                "end": int(end.timestamp() * 1000),
                "lat": float(point.y),
                "lon": float(point.x),
            }
        )
    return out


def subsample(pfs, seconds):
    times = [t.timestamp() for t in pfs["tracked_at"]]
    keep = []
    last = None
    for index, t in enumerate(times):
        if last is None or t - last >= seconds:
            keep.append(index)
            last = t
    return pfs.iloc[keep]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: peer-stays.py GEOLIFE_DIR OUT.json")
    pfs, _ = ti.io.read_geolife(sys.argv[1], print_progress=False)
    result = {
        "library": f"trackintel {ti.__version__}",
        "method": f"generate_staypoints(method='sliding', dist_threshold={DIST}, time_threshold={MINUTES}, "
        "gap_threshold=15, include_last=True); bridged: same-place silences filled in first",
        "users": {},
    }
    for user, fixes in pfs.groupby("user_id"):
        fixes = fixes.sort_values("tracked_at", kind="stable")
        fixes = fixes[~fixes["tracked_at"].duplicated(keep="first")]
        entry = {
            "fixes": len(fixes),
            "reference": stays(fixes, GAP_MINUTES),
            "bridged": stays(bridged(fixes), GAP_MINUTES),
        }
        for seconds in (120, 180):
            sub = subsample(fixes, seconds)
            entry[f"points{seconds}"] = len(sub)
            entry[f"sub{seconds}"] = stays(sub, GAP_MINUTES)
            entry[f"sub{seconds}_bridged"] = stays(bridged(sub), GAP_MINUTES)
        result["users"][f"{int(user):03d}"] = entry
        print(f"{int(user):03d}: {len(fixes)} fixes, {len(entry['reference'])} stays", file=sys.stderr)
    with open(sys.argv[2], "w") as out:
        json.dump(result, out)


if __name__ == "__main__":
    main()
