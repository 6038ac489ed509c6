// Shared stage 1 on suites whose --require'd helper puts the module under repair on a global (lunr's
// test/test_helper.js: global.lunr = require('../lunr.js')), on real mocha 3 and 11 through the built CLI: each round
// runs the helper again, so every candidate is tested on its own code, and the rounds still share one process.
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cachedRunner, missingRunner } from '../../unit/helpers/runners';
import { makeWorkspace } from '../../unit/helpers/workspace';
import { CANDIDATES, FILES, candidatesRequest } from './sharedRoundsRequests';

const HELPER_FILES: Record<string, string> = {
  'src/calc.js': FILES['src/calc.js'],
  'test/helper.js': "global.calc = require('../src/calc');\nglobal.assert = require('assert');\n",
  'test/clamp.test.js': [
    "describe('clamp', function () {",
    '  it(\'keeps a value inside\', function () { assert.equal(calc.clamp(5, 0, 10), 5); });',
    '  it(\'caps at hi\', function () { assert.equal(calc.clamp(15, 0, 10), 10); });',
    '});',
    '',
  ].join('\n'),
  'test/other.test.js': "describe('other', function () { it('holds', function () { assert.ok(true); }); });\n",
};

// Each process (#1, #3, #5 and #2, #4, #6) meets a wrong candidate before a right one: a round that kept the helper's
// first module would fail the right one.
const wrong = (value: string) => `  if (x < lo) return lo;\n  if (x > hi) return ${value};`;
const ORDER = [wrong('x'), wrong('hi - 1'), CANDIDATES[3].text, wrong('lo + 1'), wrong('hi + 1'), CANDIDATES[9].text];

/** The same tests under mocha's tdd interface (suite/test), as lunr writes them. */
const TDD_FILES: Record<string, string> = Object.fromEntries(
  Object.entries(HELPER_FILES).map(([name, text]) => [name, name.startsWith('test/') && name !== 'test/helper.js' ? text.replace(/\bdescribe\(/g, 'suite(').replace(/\bit\(/g, 'test(') : text]),
);

// mocha 3 with -u tdd, as lunr runs it: before, each round set up the default (bdd) interface again, tdd's suite()
// kept adding to the first round's root, and the second round ran no test (the process ended there).
const CASES = [
  ['mocha-3', 'mocha -u tdd -r test/helper.js -R dot test/', TDD_FILES],
  ['mocha-11', 'mocha --require test/helper.js --reporter dot test/', HELPER_FILES],
] as const;
for (const [folder, script, files] of CASES) {
  const modules = cachedRunner(folder, 'mocha');
  describe(`shared stage 1 with a --require'd helper on ${folder} (${script})`, { skip: modules ? false : missingRunner(folder) }, () => {
    it('runs the helper again each round: one process, each candidate its own verdict', async () => {
      const ws = makeWorkspace({ ...files, 'package.json': JSON.stringify({ name: 'helper-demo', private: true, scripts: { test: script } }) });
      symlinkSync(modules as string, join(ws, 'node_modules'));
      const r = await candidatesRequest(ws, 'src/calc.js', ORDER);
      assert.deepEqual(r.statuses, ['fail', 'fail', 'pass', 'fail', 'fail', 'pass'], r.stderr);
      assert.doesNotMatch(r.stderr, /loaded by something other than the tests/, r.stderr);
      // Every round of it counted: one that did not load the module anew would end the process there (notSame).
      assert.match(r.stderr, /stage 1 of candidates #2, #4, #6 shared one mocha process \([\d.]+ s\), one round each\n/, r.stderr);
      assert.match(r.stderr, /stage 1 of candidates #1, #3(?:, #5)? shared one mocha process/, r.stderr);
    });
  });
}
