// Stage 1 shared among candidates in one started tape (tapeRounds.ts), on real tape 4 and 5 through the built CLI:
// every candidate's verdict is the one it earns on its own, whatever ran before it in the same process.
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cachedRunner, missingRunner } from '../../unit/helpers/runners';
import { makeWorkspace } from '../../unit/helpers/workspace';
import { CANDIDATES, FILES, candidatesRequest, expectOwnVerdicts } from './sharedRoundsRequests';

/**
 * The clamp of FILES under tape. A `-r` module puts the module under repair on a global, as older suites do, and
 * 'caps far above' reads it there: a round that did not require the `-r` module again would test the first round's
 * candidate. One file registers through `require('tape').test`, as real projects write it. 'caps at hi' ends from a
 * callback, as asynchronous tests do: tape runs the next test only then.
 */
const TAPE_FILES: Record<string, string> = {
  'src/calc.js': FILES['src/calc.js'],
  'test/setup.js': "global.vfCalc = require('../src/calc');\n",
  'test/clamp.test.js': [
    "var test = require('tape');",
    "var calc = require('../src/calc');",
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
    const project = (): string => {
      const ws = makeWorkspace({ ...TAPE_FILES, 'package.json': JSON.stringify({ name: 'shared-tape-demo', private: true, scripts: { test: SCRIPT } }) });
      symlinkSync(modules as string, join(ws, 'node_modules'));
      return ws;
    };

    it('gives every candidate the verdict it earns alone, and says the process was shared and why it ended', async () => {
      await expectOwnVerdicts({ runner: 'tape', ws: project(), file: 'src/calc.js', candidates: CANDIDATES, unparsable: 6, failingTest: /caps (?:at hi|far above)/ });
    });

    it('runs every round of wrong candidates in one process each, the right one last', async () => {
      const wrong = [CANDIDATES[1], CANDIDATES[2], CANDIDATES[6]].map((c) => c.text);
      const r = await candidatesRequest(project(), 'src/calc.js', [...wrong, '  if (x < lo) return lo;\n  if (x > hi) return lo + 1;', CANDIDATES[3].text]);
      assert.doesNotMatch(r.stderr, /ended after/, r.stderr);
      assert.match(r.stderr, /stage 1 of candidates #1, #3, #5 shared one tape process \([\d.]+ s\), one round each\n/);
      assert.match(r.stderr, /stage 1 of candidates #2, #4 shared one tape process \([\d.]+ s\), one round each\n/);
      assert.deepEqual(r.statuses, ['fail', 'fail', 'fail', 'fail', 'pass']);
      for (const c of r.candidates.slice(0, 4)) assert.match(c.failure ?? '', /^still failing: test\/clamp\.test\.js > caps (?:at hi|far above)/, `#${c.number}`);
    });

    it('fails a candidate whose test throws (tape leaves it to node) at that test, and goes on with the next round', async () => {
      const throwing = '  if (x < lo) return lo;\n  if (x > hi) throw new Error("boom");';
      // Thrown from a callback while 'caps at hi' waits to end: once it ends, its harness must not go on to 'caps far
      // above' beside the next round, where that candidate's code would leave a global and end the process.
      const late = '  if (x < lo) return lo; if (x === 15) process.nextTick(function () { throw new Error("late"); });\n  if (x === 99) global.vfLate = 1; return x > hi ? lo : x;';
      const wrong = [CANDIDATES[1], CANDIDATES[2], CANDIDATES[6]].map((c) => c.text).concat('  if (x < lo) return lo;\n  if (x > hi) return lo + 1;');
      const r = await candidatesRequest(project(), 'src/calc.js', [wrong[0], wrong[1], throwing, late, CANDIDATES[3].text, wrong[2], CANDIDATES[9].text, wrong[3]]);
      assert.doesNotMatch(r.stderr, /ended after/, r.stderr);
      assert.match(r.stderr, /stage 1 of candidates #1, #3, #5, #7 shared one tape process \([\d.]+ s\), one round each\n/);
      assert.match(r.stderr, /stage 1 of candidates #2, #4, #6, #8 shared one tape process \([\d.]+ s\), one round each\n/);
      assert.deepEqual(r.statuses, ['fail', 'fail', 'fail', 'fail', 'pass', 'fail', 'pass', 'fail']);
      assert.match(r.candidates[2].failure ?? '', /^still failing: test\/clamp\.test\.js > caps at hi\b[^]*threw: Error: boom/, r.stderr);
      assert.match(r.candidates[3].failure ?? '', /^still failing: test\/clamp\.test\.js > caps at hi\b/, r.stderr);
    });
  });
}
