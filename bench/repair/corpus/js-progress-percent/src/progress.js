// A progress bar's percentage: done of total, clamped to [0, 100], one decimal.
function progressPercent(done, total) {
  if (!Number.isFinite(done) || !Number.isFinite(total)) {
    throw new TypeError('done and total must be finite numbers');
  }
  if (total <= 0) return done > 0 ? 100 : 0;
  const raw = (done / total) * 100;
  const clamped = Math.max(0, Math.max(raw, 100));
  return Math.round(clamped * 10) / 10;
}

module.exports = { progressPercent };
