// Stage 1 shared among candidates in one started runner (stageOneBatch.ts), on real mocha and jest releases and pytest
// through the built CLI: every candidate's verdict is the one it earns on its own, whatever ran before it in the same
// process (vitest: sharedStageOneVitest.test.ts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cachedRunner, missingRunner } from '../../unit/helpers/runners';
import { makeWorkspace } from '../../unit/helpers/workspace';
import { CANDIDATES, FILES, candidatesRequest, expectOwnVerdicts } from './sharedRoundsRequests';

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

// Stage 1 adds --bail where the script has none (mocha 1 and 8), so a round that fails stops at its first failing
// test and rounds run different numbers of tests: they are compared by what each set out to run. --retries and a root
// hook plugin (mocha 8 and 11) live on the root suite, which each round makes anew.
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
      await expectOwnVerdicts({ runner: 'mocha', ws, file: 'src/calc.js', candidates: CANDIDATES, unparsable: 6, failingTest: /caps (?:at hi|far above)/, stopsAtFirstFailure: !script.includes('--bail') });
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
    const r = await candidatesRequest(ws, 'src/calc.js', [...WRONG, CANDIDATES[3].text]);
    assert.doesNotMatch(r.stderr, /ended after/, r.stderr);
    assert.match(r.stderr, /stage 1 of candidates #1, #3, #5 shared one mocha process \([\d.]+ s\), one round each\n/);
    assert.match(r.stderr, /stage 1 of candidates #2, #4 shared one mocha process \([\d.]+ s\), one round each\n/);
    assert.deepEqual(r.statuses, ['fail', 'fail', 'fail', 'fail', 'pass']);
  });
});

/**
 * What older mocha suites bring into every round (express 4's, for one): a package that defines a property on
 * Object.prototype as it loads (should.js, from test/mocha.opts' --require) and a child process started as the tests end
 * (its --growl notifies through one). Neither is a candidate's: before, every shared process ended after its first
 * round ("changed a built-in object (Object.prototype.should)", then "left a timer or a handle open (ProcessWrap)").
 * What packages change counts as theirs only before the file under repair first loads, when no candidate has run.
 * A candidate that patches a built-in itself (#3, String.prototype.trim, the second round of its process) still
 * ends its process, as does one that writes a package of its own and loads it to patch one.
 */
const PACKAGE_FILES: Record<string, string> = {
  ...FILES,
  'test/mocha.opts': '--require vf-should\n--reporter dot\n',
  'test/clamp.test.js': FILES['test/clamp.test.js'].replace("describe('clamp', function () {", "describe('clamp', function () {\n  after(function () { require('child_process').spawn('true'); });"),
  'node_modules/vf-should/package.json': JSON.stringify({ name: 'vf-should', version: '1.0.0', main: 'index.js' }),
  'node_modules/vf-should/index.js': "Object.defineProperty(Object.prototype, 'vfShould', { get: function () { return this; }, set: function () {}, configurable: true });\n",
};
const mocha3 = cachedRunner('mocha-3', 'mocha');
function packageWorkspace(): string {
  const ws = makeWorkspace({ ...PACKAGE_FILES, 'package.json': JSON.stringify({ name: 'package-demo', private: true, scripts: { test: 'mocha test/' } }) });
  mkdirSync(join(ws, 'node_modules', '.bin'));
  symlinkSync(join(mocha3 as string, 'mocha'), join(ws, 'node_modules', 'mocha'));
  symlinkSync(join('..', 'mocha', 'bin', 'mocha'), join(ws, 'node_modules', '.bin', 'mocha'));
  return ws;
}
/**
 * Writes a node_modules/vf-own (which patches String.prototype.trim) in the run's temp folder, outside the copy whose
 * changes the engine checks, then loads it: not a package the project had.
 */
const OWN_PACKAGE = [
  "  var fs = require('fs'), path = require('path'), dir = path.join(require('os').tmpdir(), 'vf-' + process.pid, 'node_modules', 'vf-own');",
  "  fs.mkdirSync(dir, { recursive: true }); fs.writeFileSync(path.join(dir, 'index.js'), \"String.prototype.trim = function () { return ''; };\"); require(dir);",
  '  if (x > hi) return lo;',
].join('\n');
describe('stage 1 shared on mocha 3 where a package extends Object.prototype and the suite starts a child process', { skip: mocha3 ? false : missingRunner('mocha-3') }, () => {
  it('keeps sharing through what the packages and the runner do, and still ends at a candidate\'s own patch', async () => {
    const ws = packageWorkspace();
    const r = await candidatesRequest(ws, 'src/calc.js', [WRONG[0], WRONG[1], CANDIDATES[7].text, CANDIDATES[3].text, WRONG[2], CANDIDATES[9].text]);
    assert.deepEqual(r.statuses, ['fail', 'fail', 'fail', 'pass', 'fail', 'pass'], r.stderr);
    assert.match(r.stderr, /stage 1 of candidates #2, #4, #6 shared one mocha process \([\d.]+ s\), one round each\n/, r.stderr);
    assert.match(r.stderr, /stage 1 of candidates #1, #3, #5 shared one mocha process \([\d.]+ s\), one round each; it ended after 2: a candidate changed a built-in object or a core module \(String\.prototype\.trim\)/, r.stderr);
  });
  it('ends the process at a candidate that undoes what a package did to a built-in', async () => {
    const undo = '  delete Object.prototype.vfShould; if (x < lo) return lo;\n  if (x > hi) return lo;';
    const r = await candidatesRequest(packageWorkspace(), 'src/calc.js', [WRONG[0], undo, WRONG[1], CANDIDATES[3].text]);
    assert.deepEqual(r.statuses, ['fail', 'fail', 'fail', 'pass'], r.stderr);
    assert.match(r.stderr, /stage 1 of candidates #2, #4 shared one mocha process \([\d.]+ s\), one round each; it ended after 1: a candidate changed a built-in object or a core module \(Object\.prototype\.vfShould\)/, r.stderr);
  });
  it('ends the process at a candidate that writes a package of its own and loads it to patch a built-in', async () => {
    const ws = packageWorkspace();
    const r = await candidatesRequest(ws, 'src/calc.js', [WRONG[0], WRONG[1], OWN_PACKAGE, CANDIDATES[3].text, WRONG[2], CANDIDATES[9].text]);
    assert.deepEqual(r.statuses, ['fail', 'fail', 'fail', 'pass', 'fail', 'pass'], r.stderr);
    assert.match(r.stderr, /stage 1 of candidates #1, #3, #5 shared one mocha process \([\d.]+ s\), one round each; it ended after 2: a candidate changed a built-in object or a core module \(String\.prototype\.trim\)/, r.stderr);
  });
});

/**
 * Failing tests in two files: mocha stops at the first failure in the order given, so each candidate's round runs
 * every failing test, those of clamp.test.js (the file with the most) first. #2 and #4 cap at 10 whatever hi is: they
 * pass clamp's tests and fail high.test.js's in the same round. Each candidate has one round, in one of two
 * processes. Before, the three of the second process that passed clamp's tests ran all the failing tests in a
 * second shared process.
 */
const TWO_FILES: Record<string, string> = {
  ...FILES,
  'test/high.test.js': ["var assert = require('assert');", "var calc = require('../src/calc');", "describe('high', function () { it('caps at 20', function () { assert.equal(calc.clamp(25, 0, 20), 20); }); });", ''].join('\n'),
};
const CAPS_AT_TEN = ['  if (x < lo) return lo;\n  if (x > hi) return 10;', '  if (x < lo) return lo;\n  if (x > hi) return Math.min(hi, 10);'];
describe('stage 1 shared on mocha 11 where the failing tests span two files', { skip: mocha11 ? false : missingRunner('mocha-11') }, () => {
  it('runs every failing test in one round per candidate, the file with the most first', async () => {
    const ws = makeWorkspace({ ...TWO_FILES, 'package.json': JSON.stringify({ name: 'two-files-demo', private: true, scripts: { test: 'mocha --reporter dot test/' } }) });
    symlinkSync(mocha11 as string, join(ws, 'node_modules'));
    const r = await candidatesRequest(ws, 'src/calc.js', [WRONG[0], CAPS_AT_TEN[0], WRONG[1], CAPS_AT_TEN[1], WRONG[2], CANDIDATES[3].text]);
    assert.deepEqual(r.statuses, ['fail', 'fail', 'fail', 'fail', 'fail', 'pass'], r.stderr);
    assert.match(r.stderr, /stage 1 runs the failing tests of test\/clamp\.test\.js first \(2 of 3, the file with the most\)/, r.stderr);
    assert.equal(r.stderr.match(/stage 1 of candidates #2, #4, #6 shared one mocha process \([\d.]+ s\), one round each\n/g)?.length, 1, r.stderr);
    assert.equal(r.stderr.match(/stage 1 of candidates .* shared one mocha process/g)?.length, 2, r.stderr);
    for (const n of [2, 4]) assert.match(r.candidates[n - 1].failure ?? '', /^still failing: test\/high\.test\.js > high > caps at 20/, r.stderr);
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
// One slot: the first candidate gets no head start (that needs a slot the baseline leaves idle), and while a
// head-started candidate waits for its round no process ends at its first pass. All eight share one process; a wrong
// candidate first, so the right one (#2) passes in the second round, the first loaded anew, whose cost is known.
const FIRST_PASSES = ['  if (x < lo) return lo;\n  if (x > hi) return hi + 2;', CANDIDATES[3].text, ...WRONG, '  if (x < lo) return lo;\n  if (x > hi) return hi + 1;', '  if (x < lo) return lo - 1;\n  if (x > hi) return lo;'];
const PY_WRONG = [1, 2, 6, 8].map((i) => PY_CANDIDATES[i].text);
const PY_FIRST_PASSES = ['    if x < lo: return lo\n    if x > hi: return hi + 2', PY_CANDIDATES[5].text, ...PY_WRONG, '    if x < lo: return lo\n    if x > hi: return hi + 1', '    if x < lo: return lo - 1\n    if x > hi: return lo'];
const FIRST_PASS_STATUSES = ['fail', 'pass', 'fail', 'fail', 'fail', 'fail', 'fail', 'fail'];


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
    const r = await candidatesRequest(ws, 'src/calc.js', FIRST_PASSES, undefined, 1);
    assert.deepEqual(r.statuses, FIRST_PASS_STATUSES, r.stderr);
    assert.match(r.stderr, /stage 1 of candidates #1, #2, #3, #4, #5, #6, #7, #8 shared one jest process \([\d.]+ s\), one round each; it ended after 2: a candidate passed, the first of the request to: it goes on to its own runs at once \(rounds left: 6, about [\d.]+ s; a process of their own: about [\d.]+ s to start\)/, r.stderr);
  });
});
for (const c of FIRST_PASS_CASES) {
  const workspace = (files: Record<string, string>): string => {
    if (c.runner === 'pytest') return makeWorkspace(files);
    const ws = makeWorkspace({ ...files, 'package.json': JSON.stringify({ name: 'first-pass-demo', private: true, scripts: { test: 'mocha --reporter dot test/' } }) });
    symlinkSync(mocha11 as string, join(ws, 'node_modules'));
    return ws;
  };
  describe(`the request's first pass in a shared ${c.runner} process`, { skip: c.skip }, () => {
    it('lets the process go on when the rounds left take less than its start', async () => {
      const r = await candidatesRequest(workspace(c.files), c.file, c.candidates, 'test' in c ? c.test : undefined, 1);
      assert.deepEqual(r.statuses, FIRST_PASS_STATUSES, r.stderr);
      assert.match(r.stderr, new RegExp(`stage 1 of candidates #1, #2, #3, #4, #5, #6, #7, #8 shared one ${c.runner} process \\([\\d.]+ s\\), one round each\\n`), r.stderr);
      assert.doesNotMatch(r.stderr, /ended after/, r.stderr);
    });
    it('ends the process there when the rounds left take longer than its start, and says so', async () => {
      const r = await candidatesRequest(workspace(c.slowFiles), c.file, c.candidates, 'test' in c ? c.test : undefined, 1);
      assert.deepEqual(r.statuses, FIRST_PASS_STATUSES, r.stderr);
      assert.match(r.stderr, new RegExp(`stage 1 of candidates #1, #2, #3, #4, #5, #6, #7, #8 shared one ${c.runner} process \\([\\d.]+ s\\), one round each; it ended after 2: a candidate passed, the first of the request to: it goes on to its own runs at once \\(rounds left: 6, about [\\d.]+ s; a process of their own: about [\\d.]+ s to start\\)`), r.stderr);
    });
  });
}
