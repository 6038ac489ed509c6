// Stage 1 stops at its first failing test (mocha's --bail, pytest's -x, added where the command has none), on real
// mocha 1 and 11 and pytest through the built CLI: a wrong candidate's verdict names the test it still fails and
// counts the failing tests it never reached, and a right one still runs them all.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { cachedRunner, missingRunner } from '../../unit/helpers/runners';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const made: string[] = [];
after(() => remove(...made));

interface Json {
  readonly candidates: Array<{ number: number; status: string; verified: boolean; reason?: string; tests?: { fixed: string[] } }>;
}

/** clamp returns lo above hi: three tests fail. Candidate 1 caps only up to 50; candidate 2 is right. */
async function request(ws: string, file: string, candidates: readonly string[], test?: string): Promise<{ json: Json; log: string }> {
  const list = makeWorkspace({ 'c.json': JSON.stringify(candidates) });
  const tempRoot = makeTempRoot();
  made.push(ws, list, tempRoot);
  const env: NodeJS.ProcessEnv = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
  delete env.NODE_TEST_CONTEXT;
  const r = await runCli(['fix', '--workspace', ws, '--file', file, '--lines', '2-3', '--provider', 'file', '--candidates', join(list, 'c.json'), ...(test ? ['--test', test] : []),
    '--parallel', '1', '--confirm-runs', '1', '--k', '1', '--timeout', '120', '--strength', 'off', '--behaviour', 'off', '--verbose', '--json'], { env, timeoutMs: 300_000 });
  const log = `${r.stdout}\n${r.stderr}`;
  assert.equal(r.exitCode, 0, log);
  return { json: JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as Json, log };
}

function expectStopped({ json, log }: { json: Json; log: string }, first: RegExp, fixedByRight: number): void {
  const [wrong, right] = json.candidates;
  assert.equal(wrong.status, 'fail', log);
  assert.match(wrong.reason ?? '', first, log);
  assert.match(wrong.reason ?? '', /\(1 more of the failing tests did not run\)$/, log);
  assert.equal(right.status, 'pass', log);
  assert.equal(right.tests?.fixed.length, fixedByRight, log);
}

const JS_FILES: Record<string, string> = {
  'src/calc.js': ['function clamp(x, lo, hi) {', '  if (x < lo) return lo;', '  if (x > hi) return lo;', '  return x;', '}', 'module.exports = { clamp };', ''].join('\n'),
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
      expectStopped(await request(ws, 'src/calc.js', JS_CANDIDATES), /^still failing: test\/clamp\.test\.js > clamp > caps far above /, 3);
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
    expectStopped(await request(ws, 'src/calc.py', candidates, 'python3 -m pytest -q'), /^still failing: tests\/test_clamp\.py::test_caps_far_above /, 3);
  });
});
