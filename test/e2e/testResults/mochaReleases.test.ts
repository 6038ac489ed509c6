// Mocha's per-test report through the hook, on real mocha releases 1 to 11, with the user's own reporter, --bail,
// --check-leaks, --recursive, --parallel, mocha.opts and .mocharc; and the whole request through the built CLI.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { mochaAdapter } from '../../../src/core/testResults/mocha';
import { verdicts } from '../../../src/core/testResults/compare';
import { runCli } from '../../unit/helpers/cli';
import { cachedRunner, missingRunner, MOCHA_FOLDERS } from '../../unit/helpers/runners';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const made: string[] = [];
after(() => remove(...made));

const MAJOR: Record<(typeof MOCHA_FOLDERS)[number], number> = { 'mocha-1': 1, 'mocha-3': 3, 'mocha-5': 5, 'mocha-8': 8, 'mocha-9.0': 9, 'mocha-10': 10, 'mocha-11': 11 };

/** clamp returns lo above hi: `a-clamp` fails one test (and sorts first, so --bail stops there); `b-double` passes. */
const files = (test: string): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'mocha-demo', private: true, scripts: { test } }),
  'src/calc.js': [
    'function clamp(x, lo, hi) {',
    '  if (x < lo) return lo;',
    '  if (x > hi) return lo;',
    '  return x;',
    '}',
    'function double(x) {',
    '  return x * 2;',
    '}',
    'module.exports = { clamp, double };',
    '',
  ].join('\n'),
  'test/a-clamp.test.js': [
    "var assert = require('assert');",
    "var calc = require('../src/calc');",
    "describe('clamp', function () {",
    "  it('keeps a value inside', function () { assert.equal(calc.clamp(5, 0, 10), 5); });",
    "  it('caps at hi', function () { assert.equal(calc.clamp(15, 0, 10), 10); });",
    "  it('raises to lo', function () { assert.equal(calc.clamp(-5, 0, 10), 0); });",
    '});',
    '',
  ].join('\n'),
  'test/b-double.test.js': [
    "var assert = require('assert');",
    "var calc = require('../src/calc');",
    "describe('double', function () {",
    "  it('doubles', function () { assert.equal(calc.double(3), 6); });",
    "  it('doubles zero', function () { assert.equal(calc.double(0), 0); });",
    '});',
    '',
  ].join('\n'),
  'test/deeper/c-more.test.js': ["var assert = require('assert');", "describe('more', function () { it('is reached by --recursive', function () { assert.ok(true); }); });", ''].join('\n'),
});

const FAILING = 'test/a-clamp.test.js > clamp > caps at hi';

/** A project on one cached mocha release (its node_modules linked in, as a shared store would be). */
function project(modules: string, test: string, extra: Record<string, string> = {}): string {
  const ws = makeWorkspace({ ...files(test), ...extra });
  symlinkSync(modules, join(ws, 'node_modules'));
  made.push(ws);
  return ws;
}

/** Runs the adapter's command for `base` in `ws` as the executor would: the hook in an output folder, the report beside. */
function run(ws: string, base: string, only?: readonly string[]) {
  const out = mkdtempSync(join(tmpdir(), 'vf-mocha-out-'));
  made.push(out);
  for (const [name, text] of Object.entries(mochaAdapter.outputFiles ?? {})) writeFileSync(join(out, name), text);
  const report = join(out, 'report.json');
  const command = mochaAdapter.command(base, report, only, out);
  assert.ok(command);
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const r = spawnSync('/bin/sh', ['-c', command], { cwd: ws, encoding: 'utf8', env, timeout: 60_000 });
  let text = '';
  try {
    text = readFileSync(report, 'utf8');
  } catch {
    // asserted below
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, results: mochaAdapter.parse(text, ws), text };
}

for (const folder of MOCHA_FOLDERS) {
  const modules = cachedRunner(folder, 'mocha');
  describe(`mocha report hook on ${folder}`, { skip: modules ? false : missingRunner(folder) }, () => {
    // mocha 1's bin/mocha runs _mocha with `customFds`, which Node dropped: its output is lost, so _mocha is what prints.
    const mocha = MAJOR[folder] === 1 ? './node_modules/.bin/_mocha' : './node_modules/.bin/mocha';

    if (MAJOR[folder] === 1) {
      it('reports through the bin/mocha wrapper too, which runs the tests in a child process', () => {
        const r = run(project(modules as string, 'mocha'), './node_modules/.bin/mocha --reporter dot test/');
        assert.equal(verdicts(r.results).get(FAILING), 'failed', r.text);
        assert.equal(verdicts(r.results).size, 5, r.text);
      });
    }

    it("keeps the user's dot reporter and --bail, and reports the tests that ran", () => {
      const ws = project(modules as string, 'mocha');
      const r = run(ws, `${mocha} --reporter dot --bail --check-leaks test/`);
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stdout, /1 passing/, 'the dot reporter still prints its summary');
      assert.doesNotMatch(r.stdout, /^\s*[{[]/m, 'no JSON on stdout');
      const outcomes = verdicts(r.results);
      assert.equal(outcomes.get(FAILING), 'failed', r.text);
      assert.equal(outcomes.get('test/a-clamp.test.js > clamp > keeps a value inside'), 'passed');
      assert.equal(outcomes.size, 2, `--bail stopped at the first failure: ${[...outcomes.keys()].join(', ')}`);
      const failure = r.results.find((t) => t.id === FAILING);
      assert.match(failure?.message ?? '', /expected: 10\nactual: 0/);
    });

    it('selects one test with --grep and its file, under spec and --recursive', () => {
      const ws = project(modules as string, 'mocha');
      const full = run(ws, `${mocha} --reporter spec --recursive --check-leaks test/`);
      assert.match(full.stdout, /caps at hi/);
      assert.equal(verdicts(full.results).size, 6, full.text);
      assert.equal(verdicts(full.results).get('test/deeper/c-more.test.js > more > is reached by --recursive'), 'passed');
      const only = run(ws, `${mocha} --reporter spec --recursive --check-leaks test/`, [FAILING]);
      assert.deepEqual([...verdicts(only.results)], [[FAILING, 'failed']]);
    });

    it(MAJOR[folder] >= 6 ? 'reads a .mocharc that names a reporter and the spec' : 'reads a test/mocha.opts that names a reporter', () => {
      const config: Record<string, string> =
        MAJOR[folder] >= 6 ? { '.mocharc.json': JSON.stringify({ reporter: 'dot', spec: ['test/*.test.js'], 'check-leaks': true }) } : { 'test/mocha.opts': '--reporter dot\n--check-leaks\n' };
      const ws = project(modules as string, 'mocha', config);
      const r = run(ws, MAJOR[folder] >= 6 ? mocha : `${mocha} test/*.test.js`);
      assert.match(r.stdout, /4 passing/);
      assert.equal(verdicts(r.results).size, 5, r.text);
    });

    if (MAJOR[folder] >= 8) {
      it('--parallel: only the main process writes, with every worker\'s tests', () => {
        const ws = project(modules as string, 'mocha');
        const r = run(ws, `${mocha} --parallel --jobs 2 --reporter dot --recursive test/`);
        assert.match(r.stdout, /5 passing/);
        const outcomes = verdicts(r.results);
        assert.equal(outcomes.size, 6, r.text);
        assert.equal(outcomes.get(FAILING), 'failed');
        assert.equal(outcomes.get('test/b-double.test.js > double > doubles'), 'passed');
      });
    }
  });
}

// The CLI as the user ran it: `npm test` names its own reporter, --bail and --check-leaks.
const CANDIDATES = ['  if (x < lo) return lo;\n  if (x > hi) return x;', '  if (x < lo) return lo;\n  if (x > hi) return hi;'];

for (const folder of ['mocha-1', 'mocha-11'] as const) {
  const modules = cachedRunner(folder, 'mocha');
  describe(`a fix request on ${folder} with \`mocha --reporter spec --bail --check-leaks test/\``, { skip: modules ? false : missingRunner(folder) }, () => {
    it('reads per-test results, runs the failing test first, and says what the fix proved', async () => {
      const ws = project(modules as string, 'mocha --reporter spec --bail --check-leaks --recursive test/');
      const tempRoot = makeTempRoot();
      made.push(tempRoot);
      const candidates = makeWorkspace({ 'c.json': JSON.stringify(CANDIDATES) });
      made.push(candidates);
      const env: NodeJS.ProcessEnv = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
      delete env.NODE_TEST_CONTEXT;
      const args = ['fix', '--workspace', ws, '--file', 'src/calc.js', '--lines', '2-3', '--provider', 'file', '--candidates', join(candidates, 'c.json')];
      args.push('--parallel', '2', '--confirm-runs', '1', '--k', '1', '--timeout', '60', '--strength', 'off', '--verbose');
      const r = await runCli(args, { env, timeoutMs: 180_000 });
      assert.equal(r.exitCode, 0, `${r.stdout}\n${r.stderr}`);
      const log = `${r.stdout}\n${r.stderr}`;
      assert.doesNotMatch(log, /per-test results: not available|left no mocha test report|judged by its exit code alone/);
      assert.match(log, /per-test results \(mocha\): 1 of 2 tests fail on the unmodified code: test\/a-clamp\.test\.js > clamp > caps at hi/);
      assert.match(log, /still failing: test\/a-clamp\.test\.js > clamp > caps at hi/, 'the wrong candidate stopped at the failing test');
      assert.match(r.stdout, /fixes 1 failing test · 5 others still pass/);
    });
  });
}
