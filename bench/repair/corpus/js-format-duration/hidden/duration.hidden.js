const test = require('node:test');
const assert = require('node:assert/strict');
const { formatDuration } = require('../src/duration');

test('durations', () => {
  const cases = [[0, '0:00:00'], [86399, '23:59:59'], [-90, '-0:01:30'], [36000, '10:00:00'], [59.9, '0:00:59'],
    [3599, '0:59:59'], [3600, '1:00:00'], [90061, '25:01:01']];
  for (const [s, text] of cases) assert.equal(formatDuration(s), text, String(s));
});
