function between(x, lo, hi) {
  return x >= lo && x <= hi;
}

// Counts ages per labelled bucket ({ label, min, max }, inclusive) for a report; the rest go to 'other'.
function bucketAges(ages, buckets) {
  const counts = {};
  for (const b of buckets) counts[b.label] = 0;
  counts.other = 0;
  for (const age of ages) {
    const hit = buckets.find((b) => between(b.min, age, b.max));
    if (hit) counts[hit.label]++;
    else counts.other++;
  }
  return counts;
}

module.exports = { bucketAges };
