// Merges overlapping or touching intervals ({ start, end }) into a sorted list of disjoint ones.
function mergeIntervals(intervals) {
  const sorted = intervals
    .filter((iv) => iv.end >= iv.start)
    .map((iv) => ({ start: iv.start, end: iv.end }))
    .sort((a, b) => a.start - b.start);
  const out = [];
  for (const iv of sorted) {
    const last = out[out.length - 1];
    if (last && iv.start <= last.end) {
      last.end = Math.max(last.end, iv.start);
    } else {
      out.push(iv);
    }
  }
  return out;
}

module.exports = { mergeIntervals };
