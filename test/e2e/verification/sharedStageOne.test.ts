// Stage 1 shared among candidates in one started mocha (stageOneBatch.ts), on real mocha releases through the built
// CLI: every candidate's verdict is the one it earns on its own, whatever ran before it in the same process.
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { cachedRunner, missingRunner } from '../../unit/helpers/runners';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const made: string[] = [];
after(() => remove(...made));

/** clamp returns lo above hi; the tests of two files load it, a third file does not. */
const FILES: Record<string, string> = {
  'src/calc.js': ['function clamp(x, lo, hi) {', '  if (x < lo) return lo;', '  if (x > hi) return lo;', '  return x;', '}', 'module.exports = { clamp };', ''].join('\n'),
  'test/clamp.test.js': [
    "var assert = require('assert');",
    "var calc = require('../src/calc');",
    "describe('clamp', function () {",
    "  it('keeps a value inside', function () { assert.equal(calc.clamp(5, 0, 10), 5); });",
    "  it('caps at hi', function () { assert.equal(calc.clamp(15, 0, 10), 10); });",
    "  it('caps far above', function () { assert.equal(String(calc.clamp(99, 0, 10)).trim(), '10'); });",
    '});',
    '',
  ].join('\n'),
  'test/low.test.js': [
    "var assert = require('assert');",
    "var calc = require('../src/calc');",
    "describe('low', function () { it('raises to lo', function () { assert.equal(calc.clamp(-5, 0, 10), 0); }); });",
    '',
  ].join('\n'),
  'test/other.test.js': ["var assert = require('assert');", "describe('other', function () { it('holds', function () { assert.ok(true); }); });", ''].join('\n'),
};

/**
 * Lines 2-3 replaced. Wrong ones fail the failing tests in different ways: a loop that never yields (first in its
 * process: its round runs past the limit and it times out as it would alone), a wrong value, a syntax error (its
 * round cannot load), a global, a patched built-in and a timer left behind (the process ends there). Two right ones,
 * the last after wrong ones: a round that kept an earlier candidate's code, or ran where one patched
 * String.prototype.trim, would fail it.
 */
const CANDIDATES: Array<{ text: string; passes: boolean; status?: string }> = [
  { text: '  for (;;) {}\n  if (x > hi) return lo;', passes: false, status: 'timeout' },
  { text: '  if (x < lo) return lo;\n  if (x > hi) return x;', passes: false },
  { text: '  if (x < lo) return hi;\n  if (x > hi) return lo;', passes: false },
  { text: '  if (x < lo) return lo;\n  if (x > hi) return (;', passes: false },
  { text: '  if (x < lo) return lo;\n  globalThis.vfLeft = 1; if (x > hi) return lo;', passes: false },
  { text: '  if (x < lo) return lo;\n  if (x > hi) return hi;', passes: true },
  { text: '  if (x < lo) return lo;\n  if (x > hi) return hi - 1;', passes: false },
  { text: "  String.prototype.trim = function () { return ''; }; if (x < lo) return lo;\n  if (x > hi) return lo;", passes: false },
  { text: '  setTimeout(function () {}, 1500); if (x < lo) return lo;\n  if (x > hi) return lo;', passes: false },
  { text: '  if (x > hi) return hi;\n  if (x < lo) return lo;', passes: true },
];


interface Json {
  readonly candidates: Array<{ number: number; status: string; verified: boolean; stage?: string; failure?: string; tests?: { fixed: string[] } }>;
  readonly verified: unknown[];
}

for (const folder of ['mocha-1', 'mocha-5', 'mocha-8', 'mocha-11'] as const) {
  const modules = cachedRunner(folder, 'mocha');
  describe(`stage 1 shared among candidates on ${folder}`, { skip: modules ? false : missingRunner(folder) }, () => {
    it('gives every candidate the verdict it earns alone, and says the process was shared and why it ended', async () => {
      const ws = makeWorkspace({ ...FILES, 'package.json': JSON.stringify({ name: 'shared-demo', private: true, scripts: { test: 'mocha --reporter dot test/' } }) });
      symlinkSync(modules as string, join(ws, 'node_modules'));
      const tempRoot = makeTempRoot();
      const list = makeWorkspace({ 'c.json': JSON.stringify(CANDIDATES.map((c) => c.text)) });
      made.push(ws, tempRoot, list);
      const env: NodeJS.ProcessEnv = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
      delete env.NODE_TEST_CONTEXT;
      const args = ['fix', '--workspace', ws, '--file', 'src/calc.js', '--lines', '2-3', '--provider', 'file', '--candidates', join(list, 'c.json')];
      args.push('--parallel', '2', '--confirm-runs', '1', '--k', '1', '--timeout', '60', '--strength', 'off', '--behaviour', 'off', '--verbose', '--json');
      const r = await runCli(args, { env, timeoutMs: 300_000 });
      const log = `${r.stdout}\n${r.stderr}`;
      if (process.env.VF_DEBUG) console.error(r.stderr.split('\n').filter((l) => /stage 1/.test(l)).join('\n'));
      assert.equal(r.exitCode, 0, log);
      assert.match(r.stderr, /stage 1 of candidates #\d+(?:, #\d+)+ shared one mocha process/, 'stage 1 ran in shared processes');
      assert.match(r.stderr, /ended after \d+: a candidate (?:passed|could not be loaded|left a new global|left a timer or a handle open)/);
      const json = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as Json;
      const got = json.candidates.map((c) => `#${c.number} ${c.status}`);
      const want = CANDIDATES.map((c, i) => `#${i + 1} ${c.status ?? (c.passes ? 'pass' : 'fail')}`);
      assert.deepEqual(got, want);
      assert.match(r.stderr, /#1's round ran past its limit/);
      assert.match(json.candidates[0].failure ?? '', /timed out after 5 s \(the 5 s floor/);
      for (const c of json.candidates.filter((c) => c.status === 'fail' && c.stage === 'failing-tests' && c.number !== 4)) {
        assert.match(c.failure ?? '', /caps (?:at hi|far above)/, `#${c.number}'s excerpt names its failing test`);
      }
      assert.equal(json.verified.length, 2);
    });
  });
}
