// The longest run of consecutive days in an activity log of YYYY-MM-DD dates (any order, repeats allowed).
function longestStreak(dates) {
  const days = [...new Set(dates)]
    .map((d) => Date.parse(`${d}T00:00:00Z`) / 86400000)
    .sort((a, b) => a - b);
  let best = 0;
  let current = 0;
  let previous = null;
  for (const day of days) {
    if (previous !== null && day === previous + 1) {
      current++;
    } else {
      current = 1;
    }
    best = Math.max(best, current);
  }
  return best;
}

module.exports = { longestStreak };
