// Where `value` goes in an ascending array to keep it sorted, after any equal values (a stable insert).
function insertionIndex(sorted, value) {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < value) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

module.exports = { insertionIndex };
