// Stage 1 shared among candidates in one started tape (tapeRounds.ts), on real tape 4 and 5 through the built CLI:
// every candidate's verdict is the one it earns on its own, whatever ran before it in the same process.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cachedRunner, missingRunner } from '../../unit/helpers/runners';
import { makeWorkspace } from '../../unit/helpers/workspace';
import { CANDIDATES, FILES, candidatesRequest, expectOwnVerdicts } from './sharedRoundsRequests';

/**
 * The clamp of FILES under tape. A `-r` module puts the module under repair on a global, as older suites do, and
 * 'caps far above' reads it there: a round that did not require the `-r` module again would test the first round's
 * candidate. One file registers through `require('tape').test`, as real projects write it. 'caps at hi' ends from a
 * callback, as asynchronous tests do: tape runs the next test only then. What real suites do beside: a test that
 * expects an uncaught exception and listens for it (node does not end the process then, nor may a round fail), a
 * timer a file starts as it loads and stops in `test.onFinish` (each round's must stop at that round's end).
 */
const TAPE_FILES: Record<string, string> = {
  'src/calc.js': FILES['src/calc.js'],
  'test/setup.js': "global.vfCalc = require('../src/calc');\n",
  'node_modules/extends-object/index.js': "Object.defineProperty(Object.prototype, 'vfShould', { get: function () { return this; }, configurable: true });\n",
  'test/clamp.test.js': [
    "var test = require('tape');",
    "var calc = require('../src/calc');",
    'var ticking = setInterval(function () {}, 1000);',
    'test.onFinish(function () { clearInterval(ticking); });',
    "test('reports a late error', function (t) {",
    "  process.once('uncaughtException', function (e) { t.equal(e.message, 'late'); t.end(); });",
    "  setTimeout(function () { throw new Error('late'); }, 0);",
    '});',
    "test('keeps a value inside', function (t) { t.equal(calc.clamp(5, 0, 10), 5); t.end(); });",
    "test('caps at hi', function (t) { t.equal(calc.clamp(15, 0, 10), 10); setImmediate(function () { t.end(); }); });",
    "test('caps far above', function (t) { t.equal(String(global.vfCalc.clamp(99, 0, 10)).trim(), '10'); t.equal(calc.clamp(99, 0, 10), 10); t.end(); });",
    '',
  ].join('\n'),
  'test/low.test.js': [
    "const { test } = require('tape');",
    "var calc = require('../src/calc');",
    "test('raises to lo', function (t) { t.equal(calc.clamp(-5, 0, 10), 0); t.end(); });",
    '',
  ].join('\n'),
  'test/other.test.js': ["var test = require('tape');", "test('holds', function (t) { t.ok(true); t.end(); });", ''].join('\n'),
};

const SCRIPT = 'tape -r ./test/setup.js test/*.test.js';

for (const folder of ['tape-4', 'tape-5']) {
  const modules = cachedRunner(folder, 'tape');
  describe(`stage 1 shared among candidates on ${folder} (${SCRIPT})`, { skip: modules ? false : missingRunner(folder) }, () => {
    // The runner's own folders linked into the workspace's node_modules, beside a package of the project's own.
    const project = (files = TAPE_FILES, script = SCRIPT): string => {
      const ws = makeWorkspace({ ...files, 'package.json': JSON.stringify({ name: 'shared-tape-demo', private: true, scripts: { test: script } }) });
      mkdirSync(join(ws, 'node_modules', '.bin'));
      symlinkSync(join(modules as string, 'tape'), join(ws, 'node_modules', 'tape'));
      symlinkSync(join(modules as string, '.bin', 'tape'), join(ws, 'node_modules', '.bin', 'tape'));
      return ws;
    };

    it('gives every candidate the verdict it earns alone, and says the process was shared and why it ended', async () => {
      await expectOwnVerdicts({ runner: 'tape', ws: project(), file: 'src/calc.js', candidates: CANDIDATES, unparsable: 6, failingTest: /caps (?:at hi|far above)/ });
    });

    it('runs every round of wrong candidates in one process each, the right one last, whatever the suite does beside', async () => {
      const wrong = [CANDIDATES[1], CANDIDATES[2], CANDIDATES[6]].map((c) => c.text);
      const r = await candidatesRequest(project(), 'src/calc.js', [...wrong, '  if (x < lo) return lo;\n  if (x > hi) return lo + 1;', CANDIDATES[3].text]);
      assert.doesNotMatch(r.stderr, /ended after/, r.stderr);
      assert.match(r.stderr, /stage 1 of candidates #1, #3, #5 shared one tape process \([\d.]+ s\), one round each\n/);
      assert.match(r.stderr, /stage 1 of candidates #2, #4 shared one tape process \([\d.]+ s\), one round each\n/);
      assert.deepEqual(r.statuses, ['fail', 'fail', 'fail', 'fail', 'pass']);
      for (const c of r.candidates.slice(0, 4)) assert.match(c.failure ?? '', /^still failing: test\/clamp\.test\.js > caps (?:at hi|far above)/, `#${c.number}`);
    });

    // A package that extends Object.prototype as a test file loads it, after tape and before the file under repair
    // (should.js does): a package's change, not a candidate's. Tape 4 loads the test files inside its command line's
    // own loading, which must not count as a package's.
    it('keeps sharing where a package the tests load extends Object.prototype', async () => {
      const files = {
        ...TAPE_FILES,
        'node_modules/extends-object/index.js': "Object.defineProperty(Object.prototype, 'vfShould', { get: function () { return this; }, configurable: true });\n",
        'test/clamp.test.js': TAPE_FILES['test/clamp.test.js'].replace("var calc = require('../src/calc');", "require('extends-object');\nvar calc = require('../src/calc');").replace('global.vfCalc', 'calc'),
      };
      const wrong = [CANDIDATES[1], CANDIDATES[2], CANDIDATES[6]].map((c) => c.text);
      const r = await candidatesRequest(project(files, 'tape test/*.test.js'), 'src/calc.js', [...wrong, CANDIDATES[3].text]);
      assert.doesNotMatch(r.stderr, /ended after/, r.stderr);
      assert.deepEqual(r.statuses, ['fail', 'fail', 'fail', 'pass']);
    });

    it('fails a candidate whose test throws (tape leaves it to node) at that test, and ends the process there', async () => {
      const throwing = '  if (x < lo) return lo;\n  if (x > hi) throw new Error("boom");';
      // Thrown from a callback while 'caps at hi' waits to end: that test fails, and 'caps far above' never runs.
      const late = '  if (x < lo) return lo; if (x === 15) process.nextTick(function () { throw new Error("late"); });\n  return x > hi ? lo : x;';
      const wrong = [CANDIDATES[1], CANDIDATES[2], CANDIDATES[6]].map((c) => c.text);
      const r = await candidatesRequest(project(), 'src/calc.js', [wrong[0], wrong[1], throwing, late, CANDIDATES[3].text, wrong[2], CANDIDATES[9].text]);
      assert.match(r.stderr, /stage 1 of candidates #1, #3, #5, #7 shared one tape process \([\d.]+ s\), one round each; it ended after 2: a test timed out or threw outside a test/);
      assert.match(r.stderr, /stage 1 of candidates #2, #4, #6 shared one tape process \([\d.]+ s\), one round each; it ended after 2: a test timed out or threw outside a test/);
      assert.deepEqual(r.statuses, ['fail', 'fail', 'fail', 'fail', 'pass', 'fail', 'pass']);
      assert.match(r.candidates[2].failure ?? '', /^still failing: test\/clamp\.test\.js > caps at hi\b[^]*threw: Error: boom/, r.stderr);
      assert.match(r.candidates[3].failure ?? '', /^still failing: test\/clamp\.test\.js > caps at hi\b/, r.stderr);
    });
  });
}
