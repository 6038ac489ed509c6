// Tape's per-test report through the hook on real tape 5: files from the registrations, subtests, TAP on stdout
// unchanged, file-level selection; and a whole fix request through the built CLI.
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { verdicts } from '../../../src/core/testResults/compare';
import { CLAMP_SOURCE, clampFixRequest, runAdapter } from '../../unit/helpers/hookRunners';
import { cachedRunner, missingRunner } from '../../unit/helpers/runners';
import { makeWorkspace, remove } from '../../unit/helpers/workspace';

const made: string[] = [];
after(() => remove(...made));

const files = (test: string): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'tape-demo', private: true, scripts: { test } }),
  'src/calc.js': CLAMP_SOURCE,
  'test/a-clamp.test.js': [
    "var test = require('tape');",
    "var calc = require('../src/calc');",
    "test('keeps a value inside', function (t) { t.equal(calc.clamp(5, 0, 10), 5); t.end(); });",
    "test('edges', function (t) {",
    "  t.test('caps at hi', function (st) { st.equal(calc.clamp(15, 0, 10), 10, 'capped'); st.end(); });",
    "  t.test('raises to lo', function (st) { st.equal(calc.clamp(-5, 0, 10), 0); st.end(); });",
    '  t.end();',
    '});',
    '',
  ].join('\n'),
  // Same test name as in a-clamp: the file comes from the registration, not the name.
  // `require('tape').test` (tape's `test` is tape itself), as real projects write it.
  'test/b-other.test.js': ["const { test } = require('tape');", "test('keeps a value inside', function (t) { t.ok(true); t.end(); });", ''].join('\n'),
});

const FAILING = 'test/a-clamp.test.js > edges > caps at hi';
const modules = cachedRunner('tape-5', 'tape');

function project(test: string): string {
  const ws = makeWorkspace(files(test));
  symlinkSync(modules as string, join(ws, 'node_modules'));
  made.push(ws);
  return ws;
}

const run = (ws: string, only?: readonly string[]) => runAdapter(ws, 'tape', made, only, 60_000);

describe('tape 5 through the report hook', { skip: modules ? false : missingRunner('tape-5') }, () => {
  it('reports each test with its file, subtests under their parent; the TAP output is tape\'s own', () => {
    const ws = project('tape test/*.test.js');
    const r = run(ws);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /^TAP version 13\n# keeps a value inside\nok 1 should be strictly equal\n/);
    assert.match(r.stdout, /^not ok \d+ capped$/m);
    assert.deepEqual([...verdicts(r.results)].map(([id, outcome]) => `${outcome} ${id}`).sort(), [
      `failed ${FAILING}`,
      'passed test/a-clamp.test.js > edges > raises to lo',
      'passed test/a-clamp.test.js > keeps a value inside',
      'passed test/b-other.test.js > keeps a value inside',
    ]);
    assert.match(r.results.find((t) => t.id === FAILING)?.message ?? '', /^capped\noperator: equal\nexpected: 10\nactual: 0/);
  });

  it('selects by file: only the failing test\'s file runs', () => {
    const r = run(project('tape test/*.test.js'), [FAILING]);
    assert.doesNotMatch(r.stdout, /ok \d+ should be truthy/, 'b-other did not run');
    assert.equal(verdicts(r.results).get(FAILING), 'failed');
    assert.ok(r.results.every((t) => t.id.startsWith('test/a-clamp.test.js > ')), r.text);
  });

  it('a fix request reads per-test results, runs the failing test\'s file first, and says what the fix proved', async () => {
    const { log, ...r } = await clampFixRequest(project('tape test/*.test.js'), made);
    assert.equal(r.exitCode, 0, log);
    assert.doesNotMatch(log, /per-test results: not available|judged by its exit code alone/);
    assert.match(log, /per-test results \(tape\): 1 of 4 tests fail on the unmodified code: test\/a-clamp\.test\.js > edges > caps at hi/);
    assert.match(log, /still failing: test\/a-clamp\.test\.js > edges > caps at hi/, 'the wrong candidate stopped at the failing test');
    assert.match(r.stdout, /fixes 1 failing test · 3 others still pass/);
  });
});
