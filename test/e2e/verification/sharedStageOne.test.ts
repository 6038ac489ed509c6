// Stage 1 shared among candidates in one started runner (stageOneBatch.ts), on real mocha, jest and vitest releases and pytest
// through the built CLI: every candidate's verdict is the one it earns on its own, whatever ran before it in the same
// process.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { cachedRunner, missingRunner } from '../../unit/helpers/runners';
import { linkModuleEntries, makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

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
 * For mocha 8 and later: the settings and hooks mocha keeps on its root suite must hold in every round. 'caps at hi'
 * fails its first try (--retries 1 lets it pass), 'caps far above' reads what a root hook plugin's beforeEach sets.
 */
const ROOT_SUITE_FILES: Record<string, string> = {
  ...FILES,
  'test/clamp.test.js': [
    "var assert = require('assert');",
    "var calc = require('../src/calc');",
    'var tries = 0;',
    "describe('clamp', function () {",
    "  it('keeps a value inside', function () { assert.equal(calc.clamp(5, 0, 10), 5); });",
    "  it('caps at hi', function () { tries++; if (tries === 1) throw new Error('the first try fails'); assert.equal(calc.clamp(15, 0, 10), 10); });",
    "  it('caps far above', function () { assert.equal(String(calc.clamp(99, 0, 10)).trim(), String(global.vfTen)); });",
    '});',
    '',
  ].join('\n'),
  'test/setup.js': 'exports.mochaHooks = { beforeEach: function () { global.vfTen = 10; } };\n',
};

/**
 * Lines 2-3 replaced. Wrong ones fail the failing tests in different ways: a loop that never yields (first in its
 * process: its round runs past the limit and it times out as it would alone), a wrong value, a syntax error (its
 * round cannot load), a global, a patched built-in and a timer left behind (the process ends there). Two right ones,
 * each after wrong ones (the first processes take every other candidate: #2, #4, #6…): a round that kept an earlier
 * candidate's code, lost the root suite's settings, or ran where one patched String.prototype.trim, would fail it.
 */
const CANDIDATES: Array<{ text: string; passes: boolean; status?: string }> = [
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


interface Json {
  readonly candidates: Array<{ number: number; status: string; verified: boolean; stage?: string; failure?: string; tests?: { fixed: string[] } }>;
  readonly verified: unknown[];
}

interface Case {
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
}

/** One request with every candidate of `c` on 2 slots, and the checks every runner's shared stage 1 must meet. */
async function expectOwnVerdicts(c: Case): Promise<void> {
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
}

// With --bail (mocha 5 and 11) a round that fails stops at its first failing test, so rounds run different numbers
// of tests: they are compared by what each set out to run. --retries and a root hook plugin (mocha 8 and 11) live
// on the root suite, which each round makes anew.
const MOCHA_CASES = [
  ['mocha-1', 'mocha --reporter dot test/', FILES],
  ['mocha-5', 'mocha --reporter dot --bail test/', FILES],
  ['mocha-8', 'mocha --reporter dot --retries 1 --require test/setup.js test/', ROOT_SUITE_FILES],
  ['mocha-11', 'mocha --bail --reporter dot --retries 1 --require test/setup.js test/', ROOT_SUITE_FILES],
] as const;
for (const [folder, script, files] of MOCHA_CASES) {
  const modules = cachedRunner(folder, 'mocha');
  describe(`stage 1 shared among candidates on ${folder} (${script})`, { skip: modules ? false : missingRunner(folder) }, () => {
    it('gives every candidate the verdict it earns alone, and says the process was shared and why it ended', async () => {
      const ws = makeWorkspace({ ...files, 'package.json': JSON.stringify({ name: 'shared-demo', private: true, scripts: { test: script } }) });
      symlinkSync(modules as string, join(ws, 'node_modules'));
      await expectOwnVerdicts({ runner: 'mocha', ws, file: 'src/calc.js', candidates: CANDIDATES, unparsable: 6, failingTest: /caps (?:at hi|far above)/ });
    });
  });
}

/**
 * Jest runs each test file's modules in a registry and a context of their own, so a global or a patched
 * String.prototype stays in its candidate's round; the loop (first in its process: the watchdog), the syntax error
 * (that round runs no test: the candidate runs on its own) and the timer left behind (host timers: the process ends)
 * are met as in mocha. jest 29 is the project's own.
 */
const JEST_CASES = [
  ['jest-26', cachedRunner('jest-26', 'jest')],
  ['jest-29', join(process.cwd(), 'node_modules')], // the project's own
  ['jest-30', cachedRunner('jest-30', 'jest')],
] as const;
for (const [folder, modules] of JEST_CASES) {
  // Through npx on jest 29: the hook loads in npx's node process too, which must leave the plan to jest's.
  const script = folder === 'jest-29' ? 'npx jest' : 'jest';
  describe(`stage 1 shared among candidates on ${folder} (${script})`, { skip: modules ? false : missingRunner(folder) }, () => {
    it('gives every candidate the verdict it earns alone, and says the process was shared and why it ended', async () => {
      const ws = makeWorkspace({ ...FILES, 'package.json': JSON.stringify({ name: 'shared-jest-demo', private: true, scripts: { test: script }, jest: { testEnvironment: 'node' } }) });
      symlinkSync(modules as string, join(ws, 'node_modules'));
      await expectOwnVerdicts({ runner: 'jest', ws, file: 'src/calc.js', candidates: CANDIDATES, unparsable: 6, failingTest: /caps (?:at hi|far above)/, ownContexts: true });
    });
  });
}

/** FILES as ES modules: vite transforms src/calc.js, so a round that kept the last candidate's transform would fail #4 and #10. */
const ESM_FILES: Record<string, string> = {
  'src/calc.js': ['export function clamp(x, lo, hi) {', '  if (x < lo) return lo;', '  if (x > hi) return lo;', '  return x;', '}', ''].join('\n'),
  'test/clamp.test.js': FILES['test/clamp.test.js'].replace("var assert = require('assert');\nvar calc = require('../src/calc');", "import assert from 'node:assert';\nimport * as calc from '../src/calc.js';"),
  'test/low.test.js': FILES['test/low.test.js'].replace("var assert = require('assert');\nvar calc = require('../src/calc');", "import assert from 'node:assert';\nimport * as calc from '../src/calc.js';"),
  'test/other.test.js': FILES['test/other.test.js'].replace("var assert = require('assert');", "import assert from 'node:assert';"),
};

/**
 * Vitest runs each test file in a worker of its own (a thread in vitest 1, a process from 2), so globals and
 * built-ins stay in their round; the loop (first in its process: the CPU of the live fork counts) and the syntax error
 * (no test runs: the candidate runs on its own) are met as in jest. vitest 1 loads the CommonJS tests (node's require),
 * 2 and 3 (the project's own) the ES modules, which go through vite's transform and vite-node's cache.
 */
const VITEST_CASES = [
  ['vitest-1', cachedRunner('vitest-1', 'vitest'), FILES, 'commonjs'],
  ['vitest-2', cachedRunner('vitest-2', 'vitest'), ESM_FILES, 'module'],
  ['vitest-3', join(process.cwd(), 'node_modules'), ESM_FILES, 'module'], // the project's own
] as const;
for (const [folder, modules, files, type] of VITEST_CASES) {
  describe(`stage 1 shared among candidates on ${folder} (${type})`, { skip: modules ? false : missingRunner(folder) }, () => {
    it('gives every candidate the verdict it earns alone, and says the process was shared and why it ended', async () => {
      const ws = makeWorkspace({ ...files, 'package.json': JSON.stringify({ name: 'shared-vitest-demo', private: true, type, scripts: { test: 'vitest run --globals' } }) });
      linkModuleEntries(modules as string, ws);
      await expectOwnVerdicts({ runner: 'vitest', ws, file: 'src/calc.js', candidates: CANDIDATES, unparsable: 6, failingTest: /caps (?:at hi|far above)/, ownContexts: true, mayEndNone: true });
    });
  });
}

describe('stage 1 shared on vitest whose config names its reporters (the wrapper config adds the engine\'s)', () => {
  it('shares, and each candidate gets the verdict it earns alone', async () => {
    const ws = makeWorkspace({
      ...ESM_FILES,
      'vitest.config.mjs': "export default { test: { globals: true, reporters: ['dot'] } };\n",
      'package.json': JSON.stringify({ name: 'reporters-vitest-demo', private: true, type: 'module', scripts: { test: 'vitest run' } }),
    });
    linkModuleEntries(join(process.cwd(), 'node_modules'), ws);
    await expectOwnVerdicts({ runner: 'vitest', ws, file: 'src/calc.js', candidates: CANDIDATES, unparsable: 6, failingTest: /caps (?:at hi|far above)/, ownContexts: true, mayEndNone: true });
  });
});

describe('stage 1 on vitest whose workers keep what they loaded (isolate: false)', () => {
  it('ends sharing after the first process\'s first round, and every candidate still gets its own verdict', async () => {
    const ws = makeWorkspace({
      ...ESM_FILES,
      'vitest.config.mjs': 'export default { test: { isolate: false, globals: true } };\n',
      'package.json': JSON.stringify({ name: 'kept-vitest-demo', private: true, type: 'module', scripts: { test: 'vitest run' } }),
    });
    linkModuleEntries(join(process.cwd(), 'node_modules'), ws);
    const r = await candidatesRequest(ws, 'src/calc.js', ['  if (x < lo) return lo;\n  if (x > hi) return x;', '  if (x < lo) return hi;\n  if (x > hi) return lo;', '  if (x < lo) return lo;\n  if (x > hi) return hi - 1;', '  if (x < lo) return lo;\n  if (x > hi) return hi;']);
    assert.match(r.stderr, /stage 1 runs one process per candidate from here on: the runner keeps its workers from one run to the next, and what they loaded with them \(isolate: false\)/);
    assert.doesNotMatch(r.stderr, /ended after [2-9]/, 'no process runs a second round');
    assert.deepEqual(r.statuses, ['fail', 'fail', 'fail', 'pass']);
  });
});

/** The same clamp in Python; test_caps_far_above sums through functools.reduce, which candidate #8 patches. */
const PY_FILES: Record<string, string> = {
  'src/calc.py': ['def clamp(x, lo, hi):', '    if x < lo: return lo', '    if x > hi: return lo', '    return x', ''].join('\n'),
  'tests/test_clamp.py': [
    'import functools',
    'from calc import clamp',
    'def test_keeps_a_value_inside(): assert clamp(5, 0, 10) == 5',
    'def test_caps_at_hi(): assert clamp(15, 0, 10) == 10',
    'def test_caps_far_above(): assert functools.reduce(lambda a, b: a + b, [clamp(99, 0, 10)]) == 10',
    '',
  ].join('\n'),
  'tests/test_low.py': ['from calc import clamp', 'def test_raises_to_lo(): assert clamp(-5, 0, 10) == 0', ''].join('\n'),
  'tests/test_other.py': ['def test_holds(): assert True', ''].join('\n'),
  'pytest.ini': '[pytest]\npythonpath = src\n',
};

/** As CANDIDATES: a loop, wrong values, a syntax error, a thread left running, a patched functools.reduce, two right ones. */
const PY_CANDIDATES: Array<{ text: string; passes: boolean; status?: string }> = [
  { text: '    while True: pass\n    if x > hi: return lo', passes: false, status: 'timeout' },
  { text: '    if x < lo: return lo\n    if x > hi: return x', passes: false },
  { text: '    if x < lo: return hi\n    if x > hi: return lo', passes: false },
  { text: '    if x < lo: return lo\n    if x > hi: return (', passes: false },
  { text: "    __import__('threading').Thread(target=__import__('time').sleep, args=(30,), daemon=True).start()\n    if x > hi: return lo", passes: false },
  { text: '    if x < lo: return lo\n    if x > hi: return hi', passes: true },
  { text: '    if x < lo: return lo\n    if x > hi: return hi - 1', passes: false },
  { text: "    setattr(__import__('functools'), 'reduce', lambda f, xs: 0)\n    if x > hi: return lo", passes: false },
  { text: '    if x < lo: return lo\n    if x > hi: return lo + 1', passes: false },
  { text: '    if x > hi: return hi\n    if x < lo: return lo', passes: true },
];

const pytest = spawnSync('python3', ['-m', 'pytest', '--version'], { encoding: 'utf8' }).status === 0;
describe('stage 1 shared among candidates on pytest', { skip: pytest ? false : 'SKIPPED: python3 -m pytest is not installed' }, () => {
  it('gives every candidate the verdict it earns alone, and says the process was shared and why it ended', async () => {
    const ws = makeWorkspace(PY_FILES);
    const test = 'python3 -m pytest -q';
    await expectOwnVerdicts({ runner: 'pytest', ws, file: 'src/calc.py', candidates: PY_CANDIDATES, unparsable: 4, failingTest: /caps_(?:at_hi|far_above)/, test });
  });
});

/**
 * A suite that prints a lot after the failing tests' suite: 4 MiB on stdout, a socket here, so the writes are still in
 * flight when the round ends. They are the output's own, not a candidate's handle: before, every shared process ended
 * after its first round ("left a timer or a handle open (SimpleWriteWrap)"), as 4 of 17 did on a real project.
 */
const LOUD_FILES: Record<string, string> = {
  ...FILES,
  'test/clamp.test.js': FILES['test/clamp.test.js'].replace("describe('clamp', function () {", "describe('clamp', function () {\n  after(function () { process.stdout.write('.'.repeat(4 << 20) + '\\n'); });"),
};
const WRONG = ['  if (x < lo) return lo;\n  if (x > hi) return x;', '  if (x < lo) return hi;\n  if (x > hi) return lo;', '  if (x < lo) return lo;\n  if (x > hi) return hi - 1;', '  if (x < lo) return lo;\n  if (x > hi) return lo + 1;'];

const mocha11 = cachedRunner('mocha-11', 'mocha');
describe('stage 1 shared on mocha 11 with output still being written when a round ends', { skip: mocha11 ? false : missingRunner('mocha-11') }, () => {
  it('keeps sharing: output in flight is not a handle a candidate left', async () => {
    const ws = makeWorkspace({ ...LOUD_FILES, 'package.json': JSON.stringify({ name: 'loud-demo', private: true, scripts: { test: 'mocha --reporter spec test/' } }) });
    symlinkSync(mocha11 as string, join(ws, 'node_modules'));
    const list = makeWorkspace({ 'c.json': JSON.stringify([...WRONG, CANDIDATES[3].text]) });
    const tempRoot = makeTempRoot();
    made.push(ws, list, tempRoot);
    const env: NodeJS.ProcessEnv = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
    delete env.NODE_TEST_CONTEXT;
    const r = await runCli(['fix', '--workspace', ws, '--file', 'src/calc.js', '--lines', '2-3', '--provider', 'file', '--candidates', join(list, 'c.json'),
      '--parallel', '2', '--confirm-runs', '1', '--k', '1', '--strength', 'off', '--behaviour', 'off', '--verbose', '--json'], { env, timeoutMs: 300_000 });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /ended after/, r.stderr);
    assert.match(r.stderr, /stage 1 of candidates #1, #3, #5 shared one mocha process \([\d.]+ s\), one round each\n/);
    assert.match(r.stderr, /stage 1 of candidates #2, #4 shared one mocha process \([\d.]+ s\), one round each\n/);
    const json = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as Json;
    assert.deepEqual(json.candidates.map((c) => c.status), ['fail', 'fail', 'fail', 'fail', 'pass']);
  });
});

/**
 * The request's first pass, in the first round of a process with three rounds left. It goes on for one more round,
 * loaded anew, to learn what a round costs. Where rounds are short against the process's start, it goes on with the
 * rest too: a process of their own would cost them another start, and the fix waits less than that start. Where each
 * round waits in a failing test, the rounds left take longer than a new process's start: the process ends there
 * (after 2), the fix goes on to its own runs, and the log says what the rounds left would have taken.
 */
const SLOW_TEST_FILES: Record<string, string> = {
  ...FILES,
  'test/clamp.test.js': FILES['test/clamp.test.js'].replace("it('caps at hi', function () {", "it('caps at hi', async function () { this.timeout(20000); await new Promise(function (r) { setTimeout(r, 1500); });"),
};
/**
 * pytest's rounds each call pytest.main again, a third of its 1.5 s start here: the margin is kept wide against a
 * loaded machine by a start that imports a slow package once, as a project's own .venv may hold (site-packages
 * modules stay loaded from one round to the next), through the conftest that loads it.
 */
const SLOW_START_PY_FILES: Record<string, string> = {
  ...PY_FILES,
  '.venv/lib/site-packages/vf_slow_start.py': 'import time\ntime.sleep(2.5)\n',
  'conftest.py': "import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), '.venv', 'lib', 'site-packages'))\nimport vf_slow_start\n",
};
const SLOW_PY_FILES: Record<string, string> = {
  ...PY_FILES,
  'tests/test_clamp.py': PY_FILES['tests/test_clamp.py'].replace('def test_caps_at_hi(): assert', 'def test_caps_at_hi(): __import__("time").sleep(3); assert'),
};
const FIRST_PASSES = [CANDIDATES[3].text, ...WRONG, '  if (x < lo) return lo;\n  if (x > hi) return hi + 1;', '  if (x < lo) return lo - 1;\n  if (x > hi) return lo;'];
const PY_WRONG = [1, 2, 6, 8].map((i) => PY_CANDIDATES[i].text);
const PY_FIRST_PASSES = [PY_CANDIDATES[5].text, ...PY_WRONG, '    if x < lo: return lo\n    if x > hi: return hi + 1', '    if x < lo: return lo - 1\n    if x > hi: return lo'];

/** One request with `candidates` on 2 slots (exit 0 checked): its log and each candidate's status, in order. */
async function candidatesRequest(ws: string, file: string, candidates: readonly string[], test?: string): Promise<{ stderr: string; statuses: string[] }> {
  const list = makeWorkspace({ 'c.json': JSON.stringify(candidates) });
  const tempRoot = makeTempRoot();
  made.push(ws, list, tempRoot);
  const env: NodeJS.ProcessEnv = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
  delete env.NODE_TEST_CONTEXT;
  const r = await runCli(['fix', '--workspace', ws, '--file', file, '--lines', '2-3', '--provider', 'file', '--candidates', join(list, 'c.json'), ...(test ? ['--test', test] : []),
    '--parallel', '2', '--confirm-runs', '1', '--k', '1', '--timeout', '120', '--strength', 'off', '--behaviour', 'off', '--verbose', '--json'], { env, timeoutMs: 300_000 });
  if (process.env.VF_DEBUG) console.error(r.stderr.split('\n').filter((l) => /stage 1 of/.test(l)).join('\n'));
  assert.equal(r.exitCode, 0, r.stderr);
  const json = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as Json;
  return { stderr: r.stderr, statuses: json.candidates.map((c) => c.status) };
}

const JEST_SLOW_TEST_FILES: Record<string, string> = {
  ...FILES,
  'test/clamp.test.js': FILES['test/clamp.test.js'].replace("it('caps at hi', function () {", "it('caps at hi', async function () { await new Promise(function (r) { setTimeout(r, 1500); });"),
};
const FIRST_PASS_CASES = [
  { runner: 'mocha', skip: mocha11 ? false : missingRunner('mocha-11'), files: FILES, slowFiles: SLOW_TEST_FILES, file: 'src/calc.js', candidates: FIRST_PASSES },
  { runner: 'pytest', skip: pytest ? false : 'SKIPPED: python3 -m pytest is not installed', files: SLOW_START_PY_FILES, slowFiles: SLOW_PY_FILES, file: 'src/calc.py', candidates: PY_FIRST_PASSES, test: 'python3 -m pytest -q' },
] as const;
// jest: the slow case only. Its rounds here take a third of its start, too close to tell on a loaded machine.
const jest29 = join(process.cwd(), 'node_modules');
describe('the request\'s first pass in a shared jest process', () => {
  it('ends the process there when the rounds left take longer than its start, and says so', async () => {
    const ws = makeWorkspace({ ...JEST_SLOW_TEST_FILES, 'package.json': JSON.stringify({ name: 'first-pass-jest', private: true, scripts: { test: 'jest' }, jest: { testEnvironment: 'node' } }) });
    symlinkSync(jest29, join(ws, 'node_modules'));
    const r = await candidatesRequest(ws, 'src/calc.js', FIRST_PASSES);
    assert.deepEqual(r.statuses, ['pass', 'fail', 'fail', 'fail', 'fail', 'fail', 'fail'], r.stderr);
    assert.match(r.stderr, /stage 1 of candidates #1, #3, #5, #7 shared one jest process \([\d.]+ s\), one round each; it ended after 2: a candidate passed, the first of the request to: it goes on to its own runs at once \(rounds left: 2, about [\d.]+ s; a process of their own: about [\d.]+ s to start\)/, r.stderr);
  });
});
for (const c of FIRST_PASS_CASES) {
  const workspace = (files: Record<string, string>): string => {
    if (c.runner === 'pytest') return makeWorkspace(files);
    const ws = makeWorkspace({ ...files, 'package.json': JSON.stringify({ name: 'first-pass-demo', private: true, scripts: { test: 'mocha --reporter dot test/' } }) });
    symlinkSync(mocha11 as string, join(ws, 'node_modules'));
    return ws;
  };
  const want = ['pass', 'fail', 'fail', 'fail', 'fail', 'fail', 'fail'];
  describe(`the request's first pass in a shared ${c.runner} process`, { skip: c.skip }, () => {
    it('lets the process go on when the rounds left take less than its start', async () => {
      const r = await candidatesRequest(workspace(c.files), c.file, c.candidates, 'test' in c ? c.test : undefined);
      assert.deepEqual(r.statuses, want, r.stderr);
      assert.match(r.stderr, new RegExp(`stage 1 of candidates #1, #3, #5, #7 shared one ${c.runner} process \\([\\d.]+ s\\), one round each\\n`), r.stderr);
      assert.doesNotMatch(r.stderr, /ended after/, r.stderr);
    });
    it('ends the process there when the rounds left take longer than its start, and says so', async () => {
      const r = await candidatesRequest(workspace(c.slowFiles), c.file, c.candidates, 'test' in c ? c.test : undefined);
      assert.deepEqual(r.statuses, want, r.stderr);
      assert.match(r.stderr, new RegExp(`stage 1 of candidates #1, #3, #5, #7 shared one ${c.runner} process \\([\\d.]+ s\\), one round each; it ended after 2: a candidate passed, the first of the request to: it goes on to its own runs at once \\(rounds left: 2, about [\\d.]+ s; a process of their own: about [\\d.]+ s to start\\)`), r.stderr);
    });
  });
}
