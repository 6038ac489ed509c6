// What the shared stage-1 e2e files (sharedStageOne*.test.ts) share: a clamp workspace, candidates that meet every
// way a round can reach the next, and requests through the built CLI with the checks each runner's rounds must meet.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const made: string[] = [];
after(() => remove(...made));

/** Python's clamp (pytest, sources under `src/`) returns lo above hi; a helper module beside it. */
export const PYTHON_FILES: Record<string, string> = {
  'src/calc.py': ['def clamp(x, lo, hi):', '    if x < lo: return lo', '    if x > hi: return lo', '    return x', ''].join('\n'),
  'src/helper.py': ['def double(x):', '    return 2 * x', ''].join('\n'),
  'tests/test_calc.py': [
    'from calc import clamp',
    'def test_keeps_a_value_inside(): assert clamp(5, 0, 10) == 5',
    'def test_caps_at_hi(): assert clamp(15, 0, 10) == 10',
    '',
  ].join('\n'),
  'pytest.ini': '[pytest]\npythonpath = src\n',
};

/** Candidates for lines 2–3 of PYTHON_FILES' clamp: the fix, and one that still fails test_caps_at_hi. */
export const PYTHON_RIGHT = '    if x < lo: return lo\n    if x > hi: return hi';
export const PYTHON_WRONG = '    if x < lo: return lo\n    if x > hi: return x';

/** clamp returns lo above hi; the tests of two files load it, a third file does not. */
export const FILES: Record<string, string> = {
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
 * each after wrong ones (the first processes take every other candidate: #2, #4, #6…): a round that kept an earlier
 * candidate's code, lost the root suite's settings, or ran where one patched String.prototype.trim, would fail it.
 */
export const CANDIDATES: Array<{ text: string; passes: boolean; status?: string }> = [
  { text: '  for (;;) {}\n  if (x > hi) return lo;', passes: false, status: 'timeout' },
  { text: '  if (x < lo) return lo;\n  if (x > hi) return x;', passes: false },
  { text: '  if (x < lo) return hi;\n  if (x > hi) return lo;', passes: false },
  { text: '  if (x < lo) return lo;\n  if (x > hi) return hi;', passes: true },
  { text: '  if (x < lo) return lo;\n  globalThis.vfLeft = 1; if (x > hi) return lo;', passes: false },
  { text: '  if (x < lo) return lo;\n  if (x > hi) return (;', passes: false },
  { text: '  if (x < lo) return lo;\n  if (x > hi) return hi - 1;', passes: false },
  { text: "  String.prototype.trim = function () { return ''; }; if (x < lo) return lo;\n  if (x > hi) return lo;", passes: false },
  { text: '  setTimeout(function () {}, 1500); if (x < lo) return lo;\n  if (x > hi) return lo;', passes: false },
  { text: '  if (x > hi) return hi;\n  if (x < lo) return lo;', passes: true },
];


export interface Json {
  readonly candidates: Array<{ number: number; status: string; verified: boolean; stage?: string; reason?: string; failure?: string; tests?: { fixed: string[] } }>;
  readonly verified: unknown[];
}

export interface Case {
  readonly runner: string;
  readonly ws: string;
  readonly file: string;
  readonly candidates: ReadonlyArray<{ text: string; passes: boolean; status?: string }>;
  /** The candidate whose text does not parse: its excerpt names the file, not a test. */
  readonly unparsable: number;
  readonly failingTest: RegExp;
  /** The test command, where it is not the workspace's `npm test`. */
  readonly test?: string;
  /** The runner runs each round's tests in a context of their own: a global or a patched built-in there ends nothing. */
  readonly ownContexts?: boolean;
  /**
   * Vitest: only the syntax error can end a process (its round, not first in its process, runs no test), and where
   * the first-pass rule splits the processes it may come first: no process need end for a candidate.
   */
  readonly mayEndNone?: boolean;
  /**
   * Stage 1 adds the runner's stop at the first failure (mocha's --bail, vitest's --bail=1) to a command without one:
   * #2, whose wrong value fails both failing tests, is stopped at the first, and its verdict counts the other as not
   * run, not as failing.
   */
  readonly stopsAtFirstFailure?: boolean;
}

/** One request with every candidate of `c` on 2 slots, and the checks every runner's shared stage 1 must meet. */
export async function expectOwnVerdicts(c: Case): Promise<void> {
  const tempRoot = makeTempRoot();
  const list = makeWorkspace({ 'c.json': JSON.stringify(c.candidates.map((x) => x.text)) });
  made.push(c.ws, tempRoot, list);
  const env: NodeJS.ProcessEnv = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
  delete env.NODE_TEST_CONTEXT;
  const args = ['fix', '--workspace', c.ws, '--file', c.file, '--lines', '2-3', '--provider', 'file', '--candidates', join(list, 'c.json')];
  if (c.test) args.push('--test', c.test);
  args.push('--parallel', '2', '--confirm-runs', '1', '--k', '1', '--timeout', '60', '--strength', 'off', '--behaviour', 'off', '--verbose', '--json');
  const r = await runCli(args, { env, timeoutMs: 300_000 });
  const log = `${r.stdout}\n${r.stderr}`;
  if (process.env.VF_DEBUG) console.error(r.stderr.split('\n').filter((l) => /stage 1|^candidate/.test(l)).join('\n'));
  assert.equal(r.exitCode, 0, log);
  assert.match(r.stderr, new RegExp(`stage 1 of candidates #\\d+(?:, #\\d+)+ shared one ${c.runner} process`), 'stage 1 ran in shared processes');
  if (!c.mayEndNone) assert.match(r.stderr, /ended after \d+: a candidate (?:could not be loaded|left a new global|left a timer or a handle open|left a thread running|changed a built-in)/);
  if (c.ownContexts) assert.doesNotMatch(r.stderr, /a candidate (?:left a new global|changed a built-in)/, 'the runner itself ends no shared process');
  const json = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as Json;
  const got = json.candidates.map((x) => `#${x.number} ${x.status}`);
  const want = c.candidates.map((x, i) => `#${i + 1} ${x.status ?? (x.passes ? 'pass' : 'fail')}`);
  assert.deepEqual(got, want, log);
  assert.match(r.stderr, /#1's round ran past its limit/);
  assert.match(json.candidates[0].failure ?? '', /^timed out after [\d.]+ s \((?:the 5 s floor|5× the baseline)/);
  for (const x of json.candidates.filter((x) => x.status === 'fail' && x.stage === 'failing-tests' && x.number !== c.unparsable)) {
    assert.match(x.failure ?? '', c.failingTest, `#${x.number}'s excerpt names its failing test`);
  }
  assert.equal(json.verified.length, c.candidates.filter((x) => x.passes).length);
  if (c.stopsAtFirstFailure) assert.match(json.candidates[1].failure ?? '', /^still failing: \S.* \(1 more of the failing tests did not run\)/, log);
}

/** One request with `candidates` on 2 slots (exit 0 checked): its log, each candidate's status in order, and its --json candidates. */
export async function candidatesRequest(ws: string, file: string, candidates: readonly string[], test?: string, parallel = 2, extra: readonly string[] = [], extraEnv: NodeJS.ProcessEnv = {}): Promise<{ stderr: string; statuses: string[]; candidates: Json['candidates'] }> {
  const list = makeWorkspace({ 'c.json': JSON.stringify(candidates) });
  const tempRoot = makeTempRoot();
  made.push(ws, list, tempRoot);
  const env: NodeJS.ProcessEnv = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot, ...extraEnv };
  delete env.NODE_TEST_CONTEXT;
  const r = await runCli(['fix', '--workspace', ws, '--file', file, '--lines', '2-3', '--provider', 'file', '--candidates', join(list, 'c.json'), ...(test ? ['--test', test] : []),
    '--parallel', String(parallel), '--confirm-runs', '1', '--k', '1', '--timeout', '120', '--strength', 'off', '--behaviour', 'off', '--verbose', '--json', ...extra], { env, timeoutMs: 300_000 });
  if (process.env.VF_DEBUG) console.error(r.stderr.split('\n').filter((l) => /stage 1 of/.test(l)).join('\n'));
  assert.equal(r.exitCode, 0, r.stderr);
  const json = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as Json;
  return { stderr: r.stderr, statuses: json.candidates.map((c) => c.status), candidates: json.candidates };
}
