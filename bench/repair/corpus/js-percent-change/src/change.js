// Percentage change between two readings, one decimal; null when the old reading is 0.
function percentChange(oldValue, newValue) {
  if (typeof oldValue !== 'number' || typeof newValue !== 'number') {
    throw new TypeError('readings must be numbers');
  }
  if (oldValue === 0) return null;
  const change = ((newValue - oldValue) * Math.abs(oldValue)) * 100;
  return Math.round(change * 10) / 10;
}

module.exports = { percentChange };
