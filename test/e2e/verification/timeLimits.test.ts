// A candidate that hangs is stopped at a multiple of the baseline's time, not at the test timeout, and says so.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';
import { cachedRunner, missingRunner } from '../../unit/helpers/runners';

const made: string[] = [];
after(() => remove(...made));

describe('time limits from the baseline', () => {
  it("times a hanging candidate out after 5× the baseline's time, within a far longer test timeout", async () => {
    const ws = makeWorkspace({
      'package.json': JSON.stringify({ name: 'limits', private: true, scripts: { test: 'node --test' } }),
      'src/calc.js': ['function clamp(x, lo, hi) {', '  if (x > hi) return lo;', '  return x;', '}', 'module.exports = { clamp };', ''].join('\n'),
      // A suite that takes over a second, so the limit is the multiple and not the floor.
      'test/clamp.test.js': [
        "const test = require('node:test');",
        "const assert = require('node:assert/strict');",
        "const { clamp } = require('../src/calc');",
        "test('caps at hi', () => assert.equal(clamp(15, 0, 10), 10));",
        'test(\'takes a while\', () => new Promise((resolve) => setTimeout(resolve, 1500)));',
        '',
      ].join('\n'),
    });
    const tempRoot = makeTempRoot();
    const folder = makeWorkspace({ 'c.json': JSON.stringify(['  while (x > hi) {}']) });
    made.push(ws, tempRoot, folder);
    const env: NodeJS.ProcessEnv = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
    delete env.NODE_TEST_CONTEXT;
    const args = ['fix', '--workspace', ws, '--file', 'src/calc.js', '--lines', '2-2', '--provider', 'file', '--candidates', join(folder, 'c.json')];
    args.push('--test', 'node --test', '--confirm-runs', '1', '--k', '1', '--timeout', '600', '--strength', 'off', '--json');
    const started = performance.now();
    const r = await runCli(args, { env, timeoutMs: 900_000 });
    const json = JSON.parse(r.stdout) as { baseline: { durationMs: number }; candidates: Array<{ status: string; reason?: string; durationMs: number }> };
    const [c] = json.candidates;
    assert.equal(c.status, 'timeout', r.stderr);
    // On a loaded machine the loop also waits for a CPU, which its limit does not count (the reason says how long).
    // One test file: a baseline that holds every slot still started one file at once, and its limit says nothing more.
    const match = /^timed out after ([\d.]+) s \(5× the baseline's ([\d.]+) s\)(, not counting [\d.]+ s spent waiting for a CPU)?$/.exec(c.reason ?? '');
    assert.ok(match, c.reason);
    assert.ok(Number(match[1]) < 600, 'the limit is below the test timeout');
    assert.equal(Number(match[2]), Number((json.baseline.durationMs / 1000).toFixed(1)));
    assert.ok(performance.now() - started < 600_000, 'the request did not wait out the test timeout');
  });
});

/**
 * A command that stops at its first failure (express 4's `npm test` has --bail): the baseline stops at the bug's
 * failing test, long before the suite's slow file. Its time bounds the runs of the failing tests; a full run gets the
 * test timeout. Before, the right fix's full run (8 s) met the 5 s floor the 0.3 s baseline set, and timed out. The
 * stop is read from the command, or from the run's report where a configuration file sets it (mocha's root suite,
 * pytest's maxfail).
 */
const CLAMP = ['function clamp(x, lo, hi) {', '  if (x > hi) return lo;', '  return x;', '}', 'module.exports = { clamp };', ''].join('\n');
const MOCHA_FILES: Record<string, string> = {
  'src/calc.js': CLAMP,
  'test/a.test.js': ["var assert = require('assert');", "var calc = require('../src/calc');", "it('caps at hi', function () { assert.equal(calc.clamp(15, 0, 10), 10); });", ''].join('\n'),
  'test/b.test.js': ["it('takes a while', function (done) { this.timeout(60000); setTimeout(done, 8000); });", ''].join('\n'),
};
const PY_FILES: Record<string, string> = {
  'src/calc.py': ['def clamp(x, lo, hi):', '    if x > hi: return lo', '    return x', ''].join('\n'),
  'tests/test_a.py': ['from calc import clamp', 'def test_caps_at_hi(): assert clamp(15, 0, 10) == 10', ''].join('\n'),
  'tests/test_b.py': ['import time', 'def test_takes_a_while(): time.sleep(8)', ''].join('\n'),
  'pytest.ini': '[pytest]\npythonpath = src\naddopts = -x\n',
};
const mocha11 = cachedRunner('mocha-11', 'mocha');
const pytest = spawnSync('python3', ['-m', 'pytest', '--version'], { encoding: 'utf8' }).status === 0;
const BAIL_CASES = [
  { name: 'mocha 11, --bail on the command', skip: mocha11 ? false : missingRunner('mocha-11'), files: { ...MOCHA_FILES, 'package.json': JSON.stringify({ name: 'bail', private: true, scripts: { test: 'mocha --bail --reporter dot test/' } }) }, file: 'src/calc.js', fix: '  if (x > hi) return hi;', stop: '--bail' },
  { name: 'mocha 11, bail in .mocharc.json', skip: mocha11 ? false : missingRunner('mocha-11'), files: { ...MOCHA_FILES, '.mocharc.json': '{ "bail": true }', 'package.json': JSON.stringify({ name: 'bail-rc', private: true, scripts: { test: 'mocha --reporter dot test/' } }) }, file: 'src/calc.js', fix: '  if (x > hi) return hi;', stop: 'bail, from its configuration' },
  { name: 'pytest, -x in addopts', skip: pytest ? false : 'SKIPPED: python3 -m pytest is not installed', files: PY_FILES, file: 'src/calc.py', fix: '    if x > hi: return hi', stop: 'maxfail=1, from its configuration', test: 'python3 -m pytest -q' },
];
for (const c of BAIL_CASES) {
  describe(`time limits where the command stops at its first failure (${c.name})`, { skip: c.skip }, () => {
    it('bounds the failing tests\' runs by the baseline and the full runs by the test timeout, and says so', async () => {
      const ws = makeWorkspace(c.files);
      if (c.file.endsWith('.js')) symlinkSync(mocha11 as string, join(ws, 'node_modules'));
      const tempRoot = makeTempRoot();
      const folder = makeWorkspace({ 'c.json': JSON.stringify([c.fix]) });
      made.push(ws, tempRoot, folder);
      const env: NodeJS.ProcessEnv = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
      delete env.NODE_TEST_CONTEXT;
      const args = ['fix', '--workspace', ws, '--file', c.file, '--lines', '2-2', '--provider', 'file', '--candidates', join(folder, 'c.json')];
      if (c.test) args.push('--test', c.test);
      args.push('--confirm-runs', '1', '--k', '1', '--timeout', '120', '--strength', 'off', '--behaviour', 'off', '--verbose', '--json');
      const r = await runCli(args, { env, timeoutMs: 600_000 });
      const json = JSON.parse(r.stdout) as { baseline: { durationMs: number }; candidates: Array<{ status: string; verified: boolean; reason?: string }> };
      assert.ok(json.baseline.durationMs < 8000, 'the baseline stopped at the failing test');
      const said = `time limit: each candidate's run of the failing tests gets [\\d.]+ s \\([^)]*\\), at most the test timeout; its full runs get the test timeout: the command stops at its first failure \\(${c.stop.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)`;
      assert.match(r.stderr, new RegExp(said), r.stderr);
      assert.deepEqual(json.candidates.map((x) => [x.status, x.verified]), [['pass', true]], r.stderr);
    });
  });
}
