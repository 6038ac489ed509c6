// The behaviour check through the built CLI, with real test runs: two verified fixes that differ (a distinguishing
// input named, and true of the fixes), two that agree on every input tried (ES modules), what a fix changes beyond
// the failing tests, an instance method, a function that cannot be replayed, `--behaviour off`, cancel, and the
// user's files left alone.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { repoRoot } from '../../unit/helpers/paths';
import { runFix } from '../../../src/core/engine/runFix';
import type { FixEvent, FixRequest } from '../../../src/core/contract/fixRequest';
import { createFileProvider } from '../../../src/core/providers/fileProvider';
import { fingerprint, makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';
import { candidatesFile, JS_CEIL as CEIL, JS_PAGES as PAGES, JS_PAGES_TESTS as PAGES_TESTS, JS_ROUND_UP as ROUND_UP, nodeTestPackage as nodeTest } from '../../unit/helpers/behaviourFixtures';

const tempRoot = makeTempRoot();
const env = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
const made: string[] = [];
after(() => remove(tempRoot, ...made));

// Line 2 leaves out the boundary age.
const AGE = 'export function isAdult(age) {\n  return age > 18;\n}\n';
const AGE_TESTS = [
  "import test from 'node:test';",
  "import assert from 'node:assert';",
  "import { isAdult } from '../src/age.js';",
  "test('18 is adult', () => assert.strictEqual(isAdult(18), true));",
  "test('30 is adult', () => assert.strictEqual(isAdult(30), true));",
  "test('12 is not', () => assert.strictEqual(isAdult(12), false));",
].join('\n');

function workspace(files: Record<string, string>): string {
  const ws = makeWorkspace(files, { git: true });
  made.push(ws);
  return ws;
}

async function fix(ws: string, file: string, candidates: string[], extra: string[] = []) {
  const list = candidatesFile(ws, candidates, made);
  const args = ['fix', '--workspace', ws, '--file', file, '--lines', '2-2', '--candidates', list, '--k', '1', '--confirm-runs', '1', '--strength', 'off', ...(extra.includes('--behaviour') ? [] : ['--behaviour', 'quick']), ...extra];
  const human = await runCli(args, { env });
  assert.equal(human.exitCode, 0, human.stderr);
  const json = await runCli([...args, '--json'], { env });
  assert.equal(json.exitCode, 0, json.stderr);
  return { stdout: human.stdout, json: JSON.parse(json.stdout) };
}

/** The two page-count fixes, as functions, to check a reported input against. */
const fixes = {
  ceil: (items: number, perPage: number) => Math.ceil(items / perPage),
  roundUp: (items: number, perPage: number) => Math.floor((items + perPage - 1) / perPage),
};

describe('the behaviour check (JavaScript, node --test)', () => {
  it('names an input on which two verified fixes differ, and what each fix changes beyond the failing tests', async () => {
    const ws = workspace({ 'src/pages.js': PAGES, 'test/pages.test.js': `${PAGES_TESTS}\n`, 'package.json': nodeTest('pages') });
    const before = fingerprint(ws);
    const { stdout, json } = await fix(ws, 'src/pages.js', [CEIL, ROUND_UP]);
    assert.deepEqual(json.verified, [0, 1]);
    const b = json.behaviour;
    assert.equal(b.status, 'compared', JSON.stringify(b));
    assert.equal(b.function, 'pageCount');
    assert.equal(b.observed, 2, 'pageCount(11, 5) and pageCount(10, 5)');
    assert.equal(b.failingTestInputs, 1);
    assert.deepEqual(b.groups, [[0], [1]]);
    const [pair] = b.pairs;
    assert.ok(pair.differing > 0 && pair.examples.length > 0);
    // Each distinguishing input is real: the two fixes give the outcomes shown.
    for (const example of pair.examples) {
      const [, items, perPage] = /^pageCount\((-?\d+), (-?\d+)\)$/.exec(example.call) ?? [];
      assert.ok(items !== undefined, example.call);
      const show = (n: number) => (Object.is(n, -0) ? '-0' : String(n));
      assert.equal(example.first, show(fixes.ceil(Number(items), Number(perPage))), example.call);
      assert.equal(example.second, show(fixes.roundUp(Number(items), Number(perPage))), example.call);
      assert.notEqual(example.first, example.second);
    }
    assert.match(stdout, /behaviour check \(pageCount\): 2 fixes, 2 behaviours on 300 inputs tried \(2 from the tests, 298 generated near them\): #1 \| #2/);
    assert.match(stdout, /fixes #1 and #2 differ on pageCount\(-?\d+, -?\d+\): #1 → -?\d+, #2 → -?\d+/);
    // The "fixes pass" line names the shortest input that tells them apart instead of only "read each".
    assert.ok(stdout.includes(`2 fixes pass; they differ on ${pair.examples[0].call}.`), stdout);
    assert.doesNotMatch(stdout, /the tests do not decide/);
    // Both fixes change more than the failing test's own call: pageCount(9, 5) was 1 and is 2.
    for (const f of b.fixes) {
      assert.ok(f.changedBeyondFailingTests > 0 && f.changedBeyondFailingTests <= f.changed && f.tried === 300, JSON.stringify(f));
      assert.match(f.examples[0].call, /^pageCount\(/);
    }
    assert.match(stdout, /fix #1: besides the failing tests, this fix changes the result on \d+ of 300 inputs tried, e\.g\. pageCount\(\d+, \d+\): before \d+, after \d+/);
    // Recording and replay happen in the engine's own copies only.
    assert.deepEqual(fingerprint(ws), before);
    assert.equal(readFileSync(join(ws, 'src/pages.js'), 'utf8'), PAGES);
    // Off: no report, and the statistics are the same either way.
    const off = await fix(ws, 'src/pages.js', [CEIL, ROUND_UP], ['--behaviour', 'off']);
    assert.equal(off.json.behaviour, undefined);
    assert.doesNotMatch(off.stdout, /behaviour check/);
    assert.match(off.stdout, /2 different fixes pass: the tests do not decide between them, so read each\./);
    for (const field of ['samples', 'passed', 'passAtK', 'passHatK', 'verified']) assert.deepEqual(json[field], off.json[field], field);
  });

  it('says two fixes agree on every input tried (an ES module), and that a fix changes nothing beyond the failing tests', async () => {
    const ws = workspace({ 'src/age.js': AGE, 'test/age.test.js': `${AGE_TESTS}\n`, 'package.json': nodeTest('age', 'module') });
    const { stdout, json } = await fix(ws, 'src/age.js', ['  return age >= 18;', '  return age > 17;']);
    const b = json.behaviour;
    assert.equal(b.status, 'compared', JSON.stringify(b));
    assert.deepEqual(b.groups, [[0, 1]]);
    assert.deepEqual(b.pairs, []);
    assert.match(stdout, /behaviour check \(isAdult\): 2 fixes, 1 behaviour: they agree on every one of \d+ inputs tried/);
    assert.match(stdout, /2 fixes pass and behave the same on all \d+ inputs tried\./);
    // Only isAdult(18) changes, and it is the failing test's own input.
    for (const f of b.fixes) assert.deepEqual([f.changed, f.changedBeyondFailingTests], [1, 0], JSON.stringify(f));
    assert.match(stdout, /fix #1: besides the failing tests, this fix changes no result on the \d+ inputs tried/);
  });

  it('replays an instance method with its recorded this, and nudges this\'s fields', async () => {
    const source = 'class Stats {\n  constructor(values) { this.values = values; }\n  median() {\n    const s = [...this.values].sort((a, b) => a - b);\n    return s[Math.floor(s.length / 2)];\n  }\n}\nmodule.exports = { Stats };\n';
    const tests = "const test = require('node:test');\nconst assert = require('node:assert');\nconst { Stats } = require('../src/stats.js');\ntest('odd', () => assert.strictEqual(new Stats([3, 1, 2]).median(), 2));\ntest('even', () => assert.strictEqual(new Stats([1, 3, 5, 9]).median(), 4));\n";
    const ws = workspace({ 'src/stats.js': source, 'test/stats.test.js': tests, 'package.json': nodeTest('stats') });
    const even = '    return s.length % 2 ? s[Math.floor(s.length / 2)] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;';
    const same = '    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;';
    const list = join(ws, '..', 'stats-candidates.json');
    writeFileSync(list, JSON.stringify([even, same]));
    made.push(list);
    const r = await runCli(['fix', '--workspace', ws, '--file', 'src/stats.js', '--lines', '5-5', '--candidates', list, '--k', '1', '--confirm-runs', '1', '--strength', 'off', '--behaviour', 'quick', '--json'], { env });
    assert.equal(r.exitCode, 0, r.stderr);
    const b = JSON.parse(r.stdout).behaviour;
    assert.equal(b.function, 'Stats#median');
    assert.equal(b.status, 'compared', JSON.stringify(b));
    assert.deepEqual(b.groups, [[0, 1]]);
    // Beyond the failing test: an even-length array other than the tests' own, found by nudging `this.values`.
    assert.ok(b.fixes[0].changedBeyondFailingTests > 0);
    assert.match(b.fixes[0].examples[0].call, /^Stats#median\(\) on \{ values: \[.*\] \}$/);
  });

  it('replays a TypeScript function with the project\'s tsx', async () => {
    const ws = workspace({
      'src/age.ts': 'export function isAdult(age: number): boolean {\n  return age > 18;\n}\n',
      'test/age.test.ts': "import test from 'node:test';\nimport assert from 'node:assert';\nimport { isAdult } from '../src/age.ts';\ntest('18 is adult', () => assert.strictEqual(isAdult(18), true));\ntest('30 is adult', () => assert.strictEqual(isAdult(30), true));\n",
      'package.json': JSON.stringify({ name: 'age-ts', type: 'module', scripts: { test: 'node --import tsx --test test/age.test.ts' } }),
      '.gitignore': 'node_modules\n',
    });
    mkdirSync(join(ws, 'node_modules'));
    symlinkSync(join(repoRoot, 'node_modules', 'tsx'), join(ws, 'node_modules', 'tsx'));
    const list = join(ws, '..', 'age-ts-candidates.json');
    writeFileSync(list, JSON.stringify(['  return age >= 18;', '  return age > 17;']));
    made.push(list);
    const r = await runCli(['fix', '--workspace', ws, '--file', 'src/age.ts', '--lines', '2-2', '--candidates', list, '--k', '1', '--confirm-runs', '1', '--strength', 'off', '--behaviour', 'quick', '--json'], { env });
    assert.equal(r.exitCode, 0, r.stderr);
    const b = JSON.parse(r.stdout).behaviour;
    assert.equal(b.status, 'compared', JSON.stringify(b));
    assert.deepEqual(b.groups, [[0, 1]]);
    assert.equal(b.observed, 2);
  });

  it('says plainly when the function cannot be replayed: a callback argument', async () => {
    const source = 'function total(items, price) {\n  return items.reduce((sum, item) => sum + price(item), 1);\n}\nmodule.exports = { total };\n';
    const tests = "const test = require('node:test');\nconst assert = require('node:assert');\nconst { total } = require('../src/total.js');\ntest('sums', () => assert.strictEqual(total([1, 2], (x) => x * 2), 6));\n";
    const ws = workspace({ 'src/total.js': source, 'test/total.test.js': tests, 'package.json': nodeTest('total') });
    const { stdout, json } = await fix(ws, 'src/total.js', ['  return items.reduce((sum, item) => sum + price(item), 0);']);
    assert.equal(json.behaviour.status, 'notReplayable');
    assert.match(json.behaviour.reason, /its arguments cannot be copied \(.*could not be cloned/);
    assert.match(stdout, /behaviour check: total is not replayable: its arguments cannot be copied/);
  });
});

describe('the behaviour check in the engine', () => {
  it('stops when cancelled: the verdicts stand, the cut-short check reports nothing, the request did not stop early', async () => {
    const ws = workspace({ 'src/pages.js': PAGES, 'test/pages.test.js': `${PAGES_TESTS}\n`, 'package.json': nodeTest('pages') });
    const start = PAGES.indexOf('  return');
    const request: FixRequest = {
      workspace: ws, relativePath: 'src/pages.js', start, end: PAGES.indexOf('\n', start), languageId: 'javascript', testCommand: 'node --test',
      // Generous limits: the total timeout would end the uncancelled check too, and no test here waits for one.
      samples: 2, testTimeoutMs: 300_000, totalTimeoutMs: 1_200_000, parallel: 2, baselineCheck: true, confirmRuns: 1, strengthCheck: 'off', behaviourCheck: 'thorough',
      isolation: { linkedFolders: [], excludes: [], allowNetwork: false, memoryMB: 0 }, provider: createFileProvider([CEIL, ROUND_UP]),
    };
    const controller = new AbortController();
    const events: FixEvent['type'][] = [];
    const previous = process.env.VERIFIED_FIX_TMPDIR;
    process.env.VERIFIED_FIX_TMPDIR = tempRoot;
    try {
      const result = await runFix({ ...request, signal: controller.signal }, (event) => {
        events.push(event.type);
        if (event.type === 'verdicts') setTimeout(() => controller.abort(), 50);
      });
      assert.deepEqual(result.verified, [0, 1]);
      assert.equal(result.behaviour, undefined);
      assert.ok(!events.includes('behaviour'));
      assert.equal(result.stoppedEarly, undefined, 'every verdict was in: the request did not stop early');
      // Without a cancel the same request reports, and its statistics are the same.
      const full = await runFix(request);
      assert.equal(full.behaviour?.status, 'compared');
      assert.deepEqual([full.samples, full.passed], [result.samples, result.passed]);
    } finally {
      if (previous === undefined) delete process.env.VERIFIED_FIX_TMPDIR;
      else process.env.VERIFIED_FIX_TMPDIR = previous;
    }
  });
});
