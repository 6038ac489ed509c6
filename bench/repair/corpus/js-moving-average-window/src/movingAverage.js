// Trailing moving average: out[i] is the mean of the `window` values ending at i (fewer at the start).
function movingAverage(values, window) {
  if (!Number.isInteger(window) || window < 1) throw new RangeError('window must be a positive integer');
  const out = [];
  for (let i = 0; i < values.length; i++) {
    let sum = 0;
    let count = 0;
    for (let j = i - window; j < i; j++) {
      if (j < 0) continue;
      sum += values[j];
      count++;
    }
    out.push(count === 0 ? 0 : sum / count);
  }
  return out;
}

module.exports = { movingAverage };
