// Local time from a page's table of [start ms, offset minutes] (LocalTime.offsetTable), daylight
// saving and zone changes included: zoneOffset (minutes east of UTC at ms), zoneLocal (a Date whose
// UTC fields read as the local time) and zoneLabel (+01:00). Function declarations, so two scripts
// of one page may both carry them.
function zoneOffset(offsets, ms) { let o = offsets.length ? offsets[0][1] : 0; for (const s of offsets) { if (s[0] <= ms) o = s[1]; else break; } return o; }
function zoneLocal(offsets, ms) { return new Date(ms + zoneOffset(offsets, ms) * 60000); }
function zoneLabel(offsets, ms) { const m = zoneOffset(offsets, ms), a = Math.abs(m); return (m < 0 ? '-' : '+') + String(Math.floor(a / 60)).padStart(2, '0') + ':' + String(a % 60).padStart(2, '0'); }
