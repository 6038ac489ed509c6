// Ava's per-test report through the hook on real ava 6 with its TAP reporter: each test with its file (ava's TAP
// names none in a one-file run), the TAP output ava's own, file-level selection; and a whole fix request.
import assert from 'node:assert/strict';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { verdicts } from '../../../src/core/testResults/compare';
import { CLAMP_SOURCE, clampFixRequest, runAdapter } from '../../unit/helpers/hookRunners';
import { cachedRunner, missingRunner } from '../../unit/helpers/runners';
import { makeWorkspace, remove } from '../../unit/helpers/workspace';

const made: string[] = [];
after(() => remove(...made));

const files = (test: string): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'ava-demo', private: true, scripts: { test } }),
  'src/calc.js': CLAMP_SOURCE,
  'test/a-clamp.test.js': [
    "const test = require('ava');",
    "const { clamp } = require('../src/calc');",
    "test('keeps a value inside', (t) => { t.is(clamp(5, 0, 10), 5); });",
    "test('caps at hi', (t) => { t.is(clamp(15, 0, 10), 10, 'capped'); });",
    "test.skip('later', (t) => { t.pass(); });",
    "test.todo('some day');",
    '',
  ].join('\n'),
  // The same title as in a-clamp: the file comes from ava's own event, not from the title.
  'test/b-other.test.js': ["const test = require('ava');", "const { clamp } = require('../src/calc');", "test('keeps a value inside', (t) => { t.is(clamp(-5, 0, 10), 0); });", ''].join('\n'),
});

const FAILING = 'test/a-clamp.test.js > caps at hi';
const modules = cachedRunner('ava-6', 'ava');

function project(test: string): string {
  const ws = makeWorkspace(files(test));
  symlinkSync(modules as string, join(ws, 'node_modules'));
  made.push(ws);
  return ws;
}

const run = (ws: string, only?: readonly string[]) => runAdapter(ws, 'ava', made, only);
const listed = (results: ReturnType<typeof run>['results']) => [...verdicts(results)].map(([id, outcome]) => `${outcome} ${id}`).sort();

describe('ava 6 --tap through the report hook', { skip: modules ? false : missingRunner('ava-6') }, () => {
  it('reports each test with its file, a skipped one as skipped, no todo; the TAP output is ava\'s own', () => {
    const r = run(project('ava --tap'));
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /^TAP version 13\n/);
    assert.match(r.stdout, /^not ok \d+ - a-clamp › caps at hi$/m);
    assert.match(r.stdout, /^# tests 4$/m);
    assert.deepEqual(listed(r.results), [
      `failed ${FAILING}`,
      'passed test/a-clamp.test.js > keeps a value inside',
      'passed test/b-other.test.js > keeps a value inside',
      'skipped test/a-clamp.test.js > later',
    ]);
    assert.match(r.results.find((t) => t.id === FAILING)?.message ?? '', /^t\.is\(\)\ncapped\nDifference \(- actual, \+ expected\):\n- 0\n\+ 10/);
  });

  it('selects by file: only the failing test\'s file runs, and its ids keep the file though ava\'s TAP drops it', () => {
    const r = run(project('ava --tap test/*.test.js'), [FAILING]);
    assert.match(r.stdout, /^not ok \d+ - caps at hi$/m, 'a one-file run: ava prints bare titles');
    assert.deepEqual(listed(r.results), [`failed ${FAILING}`, 'passed test/a-clamp.test.js > keeps a value inside', 'skipped test/a-clamp.test.js > later']);
  });

  it('a file that throws while loading is one failed result for that file, with the error', () => {
    const ws = project('ava --tap');
    writeFileSync(join(ws, 'test/c-broken.test.js'), "const test = require('ava');\ntest('never', (t) => t.pass());\nthrow new Error('boom at load');\n");
    const crashed = run(ws).results.filter((t) => t.id.startsWith('test/c-broken.test.js'));
    assert.deepEqual(crashed.map((t) => `${t.outcome} ${t.id}`), ['failed test/c-broken.test.js']);
    assert.match(crashed[0].message ?? '', /^uncaught-exception: boom at load/);
  });

  it('a fix request reads per-test results, runs the failing test\'s file first, and says what the fix proved', async () => {
    const { log, ...r } = await clampFixRequest(project('ava --tap'), made);
    assert.equal(r.exitCode, 0, log);
    assert.doesNotMatch(log, /per-test results: not available|judged by its exit code alone/);
    assert.match(log, /per-test results \(ava\): 1 of 3 tests fail on the unmodified code: test\/a-clamp\.test\.js > caps at hi/);
    assert.match(log, /still failing: test\/a-clamp\.test\.js > caps at hi/, 'the wrong candidate stopped at the failing test');
    assert.match(r.stdout, /fixes 1 failing test · 2 others still pass/);
  });
});
