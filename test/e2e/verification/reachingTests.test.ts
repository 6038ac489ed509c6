// Through the built CLI: survivors run only the tests whose process ran the selected function (node --test, from the
// baseline's coverage), the top-ranked fix runs the full suite once, --full-suite and a top-level edit run everything.
import assert from 'node:assert/strict';
import { readFileSync, symlinkSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli, sandboxArgs } from '../../unit/helpers/cli';
import { repoRoot } from '../../unit/helpers/paths';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const tempRoot = makeTempRoot();
const env: NodeJS.ProcessEnv = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
delete env.NODE_TEST_CONTEXT;
delete env.NODE_V8_COVERAGE;
const made: string[] = [tempRoot];
after(() => remove(...made));

const calc = 'function clamp(x, lo, hi) {\n  if (x < lo) return lo;\n  if (x > hi) return lo;\n  return x;\n}\nfunction double(x) {\n  return 2 * x;\n}\nmodule.exports = { clamp, double };\n';
const header = (runner: 'node' | 'mocha') => `${runner === 'node' ? "const { test } = require('node:test');\n" : 'const test = it;\n'}const assert = require('node:assert/strict');\n`;
const uses = "const { clamp, double } = require('../src/calc');\n";
const files = (runner: 'node' | 'mocha') => ({
  'package.json': JSON.stringify({ name: 'reaching-tests', private: true }),
  'src/calc.js': calc,
  // Reach clamp: the failing test and one that a wrong fix breaks.
  'test/clamp.test.js': `${header(runner)}${uses}test('caps at hi', () => assert.equal(clamp(15, 0, 10), 10));\ntest('keeps inside', () => assert.equal(clamp(5, 0, 10), 5));\n`,
  'test/bounds.test.js': `${header(runner)}${uses}test('raises to lo', () => assert.equal(clamp(-5, 0, 10), 0));\n`,
  // Load the file but never run clamp; never load it.
  'test/double.test.js': `${header(runner)}${uses}test('doubles', () => assert.equal(double(4), 8));\n`,
  'test/plain.test.js': `${header(runner)}test('adds', () => assert.equal(1 + 1, 2));\n`,
});

/** Candidates for lines 2-3 of calc.js: the fix; one that passes the failing test but breaks a reaching test; a larger fix. */
const CANDIDATES = [
  '  if (x < lo) return lo;\n  if (x > hi) return hi;',
  '  if (x < lo) return hi;\n  if (x > hi) return hi;',
  '  if (x < lo) return lo;\n  if (x > hi) return Math.min(hi, x);',
];

async function fix(runner: 'node' | 'mocha', candidates: readonly string[], lines: string, extra: readonly string[] = [], more: Record<string, string> = {}, base: Record<string, string> = files(runner)) {
  const ws = makeWorkspace({ ...base, ...more });
  if (runner === 'mocha') symlinkSync(join(repoRoot, 'node_modules'), join(ws, 'node_modules'));
  const folder = makeWorkspace({ 'candidates.json': JSON.stringify(candidates) });
  made.push(ws, folder);
  const test = runner === 'node' ? 'node --test test/' : './node_modules/.bin/mocha test/';
  const args = ['fix', '--workspace', ws, '--file', 'src/calc.js', '--lines', lines, '--provider', 'file', '--candidates', join(folder, 'candidates.json'), '--test', test];
  args.push('--parallel', '2', '--confirm-runs', '1', '--k', '1', '--strength', 'off', '--behaviour', 'off', '--json', '--verbose', ...extra);
  const r = await runCli(args, { env });
  return { r, json: r.stdout ? JSON.parse(r.stdout) : undefined };
}

describe('tests that reach the change (node --test)', () => {
  it('survivors run only the reaching tests; one that breaks a reaching test fails; the top fix runs the full suite once', async () => {
    const { r, json } = await fix('node', CANDIDATES, '2-3');
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /reaching tests: 3 of 5 tests ran the selected function on the unmodified code/);
    const [top, breaks, larger] = json.candidates;
    assert.equal(breaks.verified, false);
    assert.match(breaks.reason, /broke: test\/bounds\.test\.js > raises to lo/);
    assert.equal(larger.verified, true, r.stderr);
    assert.deepEqual(larger.reachingTests, { ran: 3, cannotReach: 2, note: 'verified on the 3 tests that reach this change (the other 2 cannot)' });
    assert.equal(larger.tests.passed, 3, 'the double and plain tests did not run');
    assert.equal(top.verified, true);
    assert.equal(top.reachingTests, undefined, 'the top-ranked fix is verified on everything');
    assert.equal(top.tests.passed, 5, 'its last run was the full suite');
    assert.deepEqual(top.runs, ['pass', 'pass'], 'the reaching tests, then the full suite');
    assert.equal(json.verified[0], 0);
    assert.match(r.stderr, /candidate #1: the top-ranked fix passed the full suite too/);
    assert.match(r.stdout + r.stderr, /verified on the 3 tests that reach this change \(the other 2 cannot\)/);
  });

  it('the baseline and the top fix\'s full run hold every slot and start as many test files at once; other runs keep node\'s choice', async (t) => {
    // Node starts availableParallelism() - 1 files at once: files that each wait for all the others pass only when
    // the run starts one more than that. They never load the target, so the candidates' own runs skip them.
    const slots = availableParallelism();
    if (slots < 2) return t.skip('one CPU: a run holding every slot holds one');
    const meet = (i: number) => `${header('node')}const { existsSync, mkdirSync, readdirSync, writeFileSync } = require('node:fs');
test('meets ${i}', async () => {
  const dir = '.meet-' + process.ppid;
  mkdirSync(dir, { recursive: true });
  writeFileSync(dir + '/${i}', '');
  for (let waited = 0; readdirSync(dir).length < ${slots}; waited += 50) {
    if (waited > 60000) assert.fail('only ' + readdirSync(dir).length + ' of ${slots} test files ran at once');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});
`;
    const meeting = Object.fromEntries(Array.from({ length: slots }, (_, i) => [`test/meet${i}.test.js`, meet(i)]));
    const { r, json } = await fix('node', CANDIDATES, '2-3', ['--parallel', String(slots)], meeting);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`starts ${slots} test files at once \\(--test-concurrency=${slots}; node's own choice here is ${slots - 1}`));
    assert.deepEqual(json.baseline.failingTests, ['test/clamp.test.js > caps at hi'], 'the meeting files passed on the unmodified code');
    const [top, , larger] = json.candidates;
    assert.equal(larger.verified, true, r.stderr);
    assert.equal(larger.tests.passed, 3, 'its reaching tests alone');
    assert.equal(top.verified, true, r.stderr);
    assert.equal(top.reachingTests, undefined);
    assert.equal(top.tests.passed, 5 + slots, 'its full run met every file');
  });

  it('--full-suite runs the whole command for every survivor', async () => {
    const { r, json } = await fix('node', CANDIDATES, '2-3', ['--full-suite']);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /reaching tests: none selected \(every survivor runs the full suite/);
    for (const c of json.candidates) assert.equal(c.reachingTests, undefined);
    assert.equal(json.candidates[2].tests.passed, 5);
    assert.deepEqual(json.candidates[0].runs, ['pass'], 'no extra full run: it already ran one');
  });

  it('a selection outside a function body (the whole function, its header too) runs the full command, and the log says why', async () => {
    const whole = (body: string) => `function clamp(x, lo, hi) {\n${body}\n  return x;\n}`;
    const { r, json } = await fix('node', [whole(CANDIDATES[0]), whole(CANDIDATES[2])], '1-5');
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /reaching tests: none selected \(the selection is not inside the body of a function/);
    for (const c of json.candidates) {
      assert.equal(c.reachingTests, undefined);
      assert.equal(c.tests.passed, 5);
    }
  });

  it('a candidate that closes the function\'s body runs the full command', async () => {
    const escape = '  if (x < lo) return lo;\n  if (x > hi) return hi;\n  return x;\n}\nfunction clamp2(x) {';
    const { r, json } = await fix('node', [CANDIDATES[2], escape], '2-3');
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /candidate #2 runs the full command, not only the reaching tests: the candidate changes code outside the selected function's body/);
    assert.equal(json.candidates[1].reachingTests, undefined);
  });
});

describe('tests that reach the change (mocha)', () => {
  it('mocha runs its files in one process: survivors run the test files that load the target module (the hook records every require)', async () => {
    // Two more files that never load the target, so that the reaching tests are not most of the suite.
    const more = { 'test/strings.test.js': `${header('mocha')}test('joins', () => assert.equal('a' + 'b', 'ab'));\ntest('repeats', () => assert.equal('a'.repeat(2), 'aa'));\n` };
    const { r, json } = await fix('mocha', CANDIDATES, '2-3', [], more);
    assert.equal(r.exitCode, 0, r.stderr);
    // double.test.js loads calc.js without running clamp: in one process, loading is what counts.
    assert.match(r.stderr, /reaching tests: 4 of 7 tests are in test files that load the target module/);
    const [top, breaks, larger] = json.candidates;
    assert.equal(breaks.verified, false);
    assert.match(breaks.reason, /raises to lo/);
    assert.equal(larger.verified, true, r.stderr);
    assert.deepEqual(larger.reachingTests, { ran: 4, cannotReach: 3, note: 'verified on the 4 tests that reach this change (the other 3 cannot)' });
    assert.equal(larger.tests.passed, 4, 'plain.test.js and strings.test.js did not run');
    assert.equal(top.verified, true);
    assert.equal(top.reachingTests, undefined, 'the top-ranked fix is verified on everything');
    assert.equal(top.tests.passed, 7);
  });

  it('where most of the suite loads the target, survivors run the whole command: selecting would save little and cost the top fix a second run', async () => {
    const { r, json } = await fix('mocha', CANDIDATES, '2-3');
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /reaching tests: none selected \(4 of 5 tests reach the change, most of the suite: running only those would save little and cost the top-ranked fix a second, full run\)/);
    for (const c of json.candidates) assert.equal(c.reachingTests, undefined);
    assert.deepEqual(json.candidates[0].runs, ['pass'], 'the top fix ran the whole command once, not its reaching tests and then the whole command');
    assert.equal(json.candidates[2].tests.passed, 5);
  });

  it('a test file that shares a project module with one that loads the target runs with everything, and the log says why', async () => {
    const state = { 'test/state.js': 'module.exports = { seen: [] };\n' };
    const shares = "const state = require('./state');\n";
    const more = {
      ...state,
      'test/bounds.test.js': `${header('mocha')}${uses}${shares}test('raises to lo', () => { state.seen.push(clamp(-5, 0, 10)); assert.equal(clamp(-5, 0, 10), 0); });\n`,
      'test/plain.test.js': `${header('mocha')}${shares}test('adds', () => assert.equal(1 + 1, 2));\n`,
    };
    const { r, json } = await fix('mocha', CANDIDATES, '2-3', [], more);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /reaching tests: none selected \(test\/plain\.test\.js does not load the target but shares test\/state\.js/);
    assert.equal(json.candidates[2].reachingTests, undefined);
    assert.equal(json.candidates[2].tests.passed, 5);
  });
});

describe('the strength check of a fix verified on its reaching tests (node --test)', () => {
  it('runs the variants past the failing tests only in the test files whose process ran the function', async () => {
    // Each test file writes one line per run: its name, and whether the run's calc.js is a strength-check copy (the
    // control comment the variants and the control run carry). Process groups let it write outside the copy.
    const log = join(tempRoot, 'started.log');
    const record = `require('node:fs').appendFileSync(${JSON.stringify(log)}, require('node:path').basename(__filename) + (require('node:fs').readFileSync(require('node:path').join(__dirname, '../src/calc.js'), 'utf8').includes('strength check: control') ? ' variant' : ' other') + '\\n');\n`;
    const plain = (n: number) => `${record}${header('node')}test('adds ${n}', () => assert.equal(${n} + 1, ${n + 1}));\n`;
    const more = Object.fromEntries([1, 2, 3, 4].map((n) => [`test/plain${n}.test.js`, plain(n)]));
    const base: Record<string, string> = { ...files('node') };
    delete base['test/plain.test.js'];
    for (const name of ['test/clamp.test.js', 'test/bounds.test.js', 'test/double.test.js']) more[name] = `${record}${base[name]}`;
    const { r, json } = await fix('node', [CANDIDATES[0]], '2-3', ['--strength', 'quick', ...sandboxArgs('process-group')], more, base);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /reaching tests: 3 of 8 tests ran the selected function/);
    const [top] = json.candidates;
    assert.equal(top.verified, true, r.stderr);
    assert.deepEqual(top.strength.reachingTests, { ran: 3, cannotReach: 5 }, JSON.stringify(top.strength));
    assert.match(r.stderr, /strength check of #1: past the failing tests, its variants run only the 3 tests that reach the change/);
    assert.match(r.stderr, /candidate #1: .*\(the variants ran on the 3 tests that reach this change; the other 5 cannot\)/);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    const variantFiles = new Set(lines.filter((l) => l.endsWith(' variant')).map((l) => l.split(' ')[0]));
    assert.ok(variantFiles.has('bounds.test.js'), `the variants reached their full stage: ${lines.join(', ')}`);
    assert.deepEqual([...variantFiles].sort(), ['bounds.test.js', 'clamp.test.js'], 'no strength-check run started a file that cannot reach the change');
    assert.ok(lines.includes('plain1.test.js other') && lines.includes('double.test.js other'), 'the baseline and the top fix\'s full run started every file');
  });
});
