// dur(seconds), which the map and timeline scripts share: "7 h 59 min", "45 min". Rounded to whole
// minutes first, so 7 h 59.9 min reads "8 h 0 min", never "7 h 60 min". A function declaration,
// so two scripts of one page may both carry it.
function dur(s) {
  const m = Math.round(s / 60);
  return m >= 60 ? Math.floor(m / 60) + ' h ' + m % 60 + ' min' : m + ' min';
}
