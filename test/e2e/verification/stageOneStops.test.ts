// Stage 1 stops at its first failing test (mocha's --bail, pytest's -x, added where the command has none), on real
// mocha 1 and 11 and pytest through the built CLI: a wrong candidate's verdict names the test it still fails and
// counts the failing tests it never reached, and a right one still runs them all.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cachedRunner, missingRunner } from '../../unit/helpers/runners';
import { makeWorkspace } from '../../unit/helpers/workspace';
import { FILES, candidatesRequest } from './sharedRoundsRequests';

/** Candidate 1 caps only up to 50, so it passes the first failing test and fails the other two; candidate 2 is right. */
function expectStopped(r: Awaited<ReturnType<typeof candidatesRequest>>, first: RegExp, fixedByRight: number): void {
  const [wrong, right] = r.candidates;
  assert.equal(wrong.status, 'fail', r.stderr);
  assert.match(wrong.reason ?? '', first, r.stderr);
  assert.match(wrong.reason ?? '', /\(1 more of the failing tests did not run\)$/, r.stderr);
  assert.equal(right.status, 'pass', r.stderr);
  assert.equal(right.tests?.fixed.length, fixedByRight, r.stderr);
}

/** clamp returns lo above hi: three tests fail. */
const JS_FILES: Record<string, string> = {
  'src/calc.js': FILES['src/calc.js'],
  'test/clamp.test.js': [
    "var assert = require('assert');",
    "var calc = require('../src/calc');",
    "describe('clamp', function () {",
    "  it('keeps a value inside', function () { assert.equal(calc.clamp(5, 0, 10), 5); });",
    "  it('caps at hi', function () { assert.equal(calc.clamp(15, 0, 10), 10); });",
    "  it('caps far above', function () { assert.equal(calc.clamp(99, 0, 10), 10); });",
    "  it('caps way above', function () { assert.equal(calc.clamp(1000, 0, 10), 10); });",
    '});',
    '',
  ].join('\n'),
};
const JS_CANDIDATES = ['  if (x < lo) return lo;\n  if (x > hi) return x < 50 ? hi : lo;', '  if (x < lo) return lo;\n  if (x > hi) return hi;'];

for (const folder of ['mocha-1', 'mocha-11']) {
  const modules = cachedRunner(folder, 'mocha');
  describe(`stage 1 stops at its first failure on ${folder}`, { skip: modules ? false : missingRunner(folder) }, () => {
    it('names the test a wrong candidate still fails and counts the one after it as not run', async () => {
      const ws = makeWorkspace({ ...JS_FILES, 'package.json': JSON.stringify({ name: 'stops-demo', private: true, scripts: { test: 'mocha --reporter spec test/' } }) });
      symlinkSync(modules as string, join(ws, 'node_modules'));
      expectStopped(await candidatesRequest(ws, 'src/calc.js', JS_CANDIDATES), /^still failing: test\/clamp\.test\.js > clamp > caps far above /, 3);
    });
  });
}

const pytest = spawnSync('python3', ['-m', 'pytest', '--version'], { encoding: 'utf8' }).status === 0;
describe('stage 1 stops at its first failure on pytest', { skip: pytest ? false : 'SKIPPED: python3 -m pytest is not installed' }, () => {
  it('names the test a wrong candidate still fails and counts the one after it as not run', async () => {
    const ws = makeWorkspace({
      'src/calc.py': ['def clamp(x, lo, hi):', '    if x < lo: return lo', '    if x > hi: return lo', '    return x', ''].join('\n'),
      'tests/test_clamp.py': [
        'from calc import clamp',
        'def test_keeps(): assert clamp(5, 0, 10) == 5',
        'def test_caps_at_hi(): assert clamp(15, 0, 10) == 10',
        'def test_caps_far_above(): assert clamp(99, 0, 10) == 10',
        'def test_caps_way_above(): assert clamp(1000, 0, 10) == 10',
        '',
      ].join('\n'),
      'pytest.ini': '[pytest]\npythonpath = src\n',
    });
    const candidates = ['    if x < lo: return lo\n    if x > hi: return hi if x < 50 else lo', '    if x < lo: return lo\n    if x > hi: return hi'];
    expectStopped(await candidatesRequest(ws, 'src/calc.py', candidates, 'python3 -m pytest -q'), /^still failing: tests\/test_clamp\.py::test_caps_far_above /, 3);
  });
});
