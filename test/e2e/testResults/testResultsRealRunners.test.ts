// Real Jest and Vitest runs: temp projects on the repo's own installs (jest 29, vitest 3) and on cached vitest 1 and 2
// (scripts/install-test-runners.sh), through the adapters and through `verified-fix fix`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { failingIds } from '../../../src/core/testResults/compare';
import { resolveRunner } from '../../../src/core/testCommand/runner';
import { jestAdapter } from '../../../src/core/testResults/jest';
import type { RunnerAdapter, TestResult } from '../../../src/core/testResults/types';
import { vitestAdapter } from '../../../src/core/testResults/vitest';
import { runCli } from '../../unit/helpers/cli';
import { cachedRunner, missingRunner } from '../../unit/helpers/runners';
import { repoRoot } from '../../unit/helpers/paths';
import { fingerprint, linkModuleEntries, makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

// Spaces, both quotes and shell and regex characters: wrong quoting or escaping of the selection would miss it.
const NAME = `includes "hi": it's $HOME (a|b) [x]* \\ ok`;
const FAILING = `test/range.test.js > inRange > ${NAME}`;
const NEAR_MISS = `${FAILING}!`;
const OUTSIDE = 'test/outside.test.js > inRange > excludes above hi';
const EXPECTED = [
  `failed ${FAILING}`,
  `passed ${NEAR_MISS}`,
  'passed test/other.test.js > top level',
  `passed ${OUTSIDE}`,
  'passed test/range.test.js > inRange > includes lo',
  'skipped test/range.test.js > inRange > later',
].sort();
// The body of inRange on line 1 of src/range.js: the bug, then the candidates in the order the CLI gets them.
const BUG = 'x >= lo && x < hi';
const WRONG = 'x >= lo && x !== hi';
const RIGHT = 'x >= lo && x <= hi';
const BREAKS = 'x >= lo';

const cleanup: string[] = [];
after(() => remove(...cleanup));

/** Child environments: a runner that inherits NODE_TEST_CONTEXT from this test runner reports to it, or misbehaves. */
function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...extra };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

interface Runner {
  readonly adapter: RunnerAdapter;
  readonly script: string;
  readonly base: string;
  readonly esm: boolean;
  /**
   * `link`: node_modules is one link to the repo's. `entries`: a folder of per-entry links, the shape the engine
   * gives its copies; vitest writes its results cache to node_modules/.vite, which through one link would land in
   * the repo's own node_modules.
   */
  readonly nodeModules: 'link' | 'entries';
  /** The node_modules folder the project's entries link to: the repo's, or a cached release's (undefined: not installed). */
  readonly installed: string | undefined;
  readonly label: string;
  readonly folder?: string;
}

const vitest = { adapter: vitestAdapter, script: 'vitest run', base: './node_modules/.bin/vitest run', esm: true, nodeModules: 'entries' } as const;
// vitest 1 spells full names with a leading space, which an anchored -t regex must allow (it selected nothing before).
const runners: Runner[] = [
  { adapter: jestAdapter, script: 'jest', base: './node_modules/.bin/jest', esm: false, nodeModules: 'link', installed: join(repoRoot, 'node_modules'), label: 'jest' },
  { ...vitest, installed: join(repoRoot, 'node_modules'), label: 'vitest' },
  ...(['vitest-1', 'vitest-2'] as const).map((folder) => ({ ...vitest, installed: cachedRunner(folder, 'vitest'), label: folder, folder })),
];

function makeProject(runner: Runner): string {
  const header = runner.esm
    ? ["import { describe, expect, test } from 'vitest';", "import { inRange } from '../src/range.js';"]
    : ["const inRange = require('../src/range');"];
  const file = (lines: string[]) => [...header, ...lines, ''].join('\n');
  const dir = makeWorkspace({
    'package.json': JSON.stringify({ private: true, ...(runner.esm ? { type: 'module' } : {}), scripts: { test: runner.script } }),
    'src/range.js': rangeSource(runner, BUG) + '\n',
    'test/range.test.js': file([
      "describe('inRange', () => {",
      "  test('includes lo', () => expect(inRange(1, 1, 3)).toBe(true));",
      `  test(${JSON.stringify(NAME)}, () => expect(inRange(3, 1, 3)).toBe(true));`,
      // Selected too if the selection's pattern were not anchored at the end.
      `  test(${JSON.stringify(`${NAME}!`)}, () => expect(inRange(2, 1, 3)).toBe(true));`,
      "  test.skip('later', () => {});",
      '});',
    ]),
    'test/outside.test.js': file(["describe('inRange', () => {", "  test('excludes above hi', () => expect(inRange(4, 1, 3)).toBe(false));", '});']),
    'test/other.test.js': file(["test('top level', () => expect(1).toBe(1));"]),
  });
  cleanup.push(dir);
  const installed = runner.installed as string;
  if (runner.nodeModules === 'link') symlinkSync(installed, join(dir, 'node_modules'));
  else linkModuleEntries(installed, dir);
  return dir;
}

function rangeSource(runner: Runner, body: string): string {
  return runner.esm ? `export const inRange = (x, lo, hi) => ${body};` : `module.exports = (x, lo, hi) => ${body};`;
}

/** Runs the adapter's command in `cwd` as the engine would (`/bin/sh -c`) and parses the report it wrote. */
function run(adapter: RunnerAdapter, base: string, cwd: string, only?: readonly string[]): { results: TestResult[]; status: number | null; output: string } {
  const folder = mkdtempSync(join(tmpdir(), 'vf-report-'));
  cleanup.push(folder);
  const report = join(folder, 'report.json');
  for (const [name, text] of Object.entries(adapter.outputFiles ?? {})) writeFileSync(join(folder, name), text);
  const command = adapter.command(base, report, only, folder);
  assert.ok(command, 'the adapter could not express the run');
  const child = spawnSync('/bin/sh', ['-c', command], { cwd, env: childEnv(), encoding: 'utf8', timeout: 120_000 });
  const text = existsSync(report) ? readFileSync(report, 'utf8') : '';
  return { results: adapter.parse(text, cwd), status: child.status, output: `${command}\n${child.stdout}${child.stderr}` };
}

const ran = (results: readonly TestResult[]) => results.filter((r) => r.outcome !== 'skipped').map((r) => r.id).sort();
const outcomes = (results: readonly TestResult[]) => results.map((r) => `${r.outcome} ${r.id}`).sort();

for (const runner of runners) {
  const name = runner.adapter.name;
  if (!runner.installed) {
    it(`${runner.label}, for real`, { skip: missingRunner(runner.folder as string) }, () => undefined);
    continue;
  }
  describe(`${runner.label}, for real`, () => {
    const dir = makeProject(runner);

    it(`npm test resolves to the local ${name} binary`, () => {
      const resolved = resolveRunner(dir, 'npm test');
      assert.ok('adapter' in resolved, JSON.stringify(resolved));
      // Jest's may come wrapped with the matchers' guard (a setup file added to the same command).
      assert.equal(resolved.adapter.name, runner.adapter.name);
      assert.equal(resolved.adapter.parse, runner.adapter.parse);
      assert.equal(resolved.base, runner.base);
    });

    it('a full run reports every test: the failing one, the skipped one, the oddly named ones', () => {
      const { results, status, output } = run(runner.adapter, runner.base, dir);
      assert.equal(status, 1, output);
      assert.deepEqual(outcomes(results), EXPECTED, output);
      const failure = results.find((r) => r.id === FAILING);
      assert.match(failure?.message ?? '', /expected/i, 'the failure message is kept');
    });

    it('only the failing id: exactly that test runs, its near-miss sibling does not', () => {
      const { results, status, output } = run(runner.adapter, runner.base, dir, [FAILING]);
      assert.equal(status, 1, output);
      assert.deepEqual(ran(results), [FAILING], output);
      assert.deepEqual(failingIds(results), [FAILING]);
      assert.ok(!results.some((r) => !r.id.startsWith('test/range.test.js > ')), 'other files are not loaded');
    });

    it('the CLI verifies in stages: a wrong fix stops at the failing test, the right one passes, a breaking one is caught', async () => {
      const tempRoot = makeTempRoot();
      cleanup.push(tempRoot);
      const candidates = join(tempRoot, 'candidates.json');
      writeFileSync(candidates, JSON.stringify([WRONG, RIGHT, BREAKS].map((body) => rangeSource(runner, body))));
      const before = fingerprint(dir);
      const args = ['fix', '--workspace', dir, '--file', 'src/range.js', '--lines', '1-1', '--provider', 'file', '--candidates', candidates];
      args.push('--test', 'npm test', '--json', '--parallel', '2', '--confirm-runs', '1', '--k', '1');
      const r = await runCli(args, { env: childEnv({ VERIFIED_FIX_TMPDIR: tempRoot }) });
      assert.equal(r.exitCode, 0, r.stderr);
      const json = JSON.parse(r.stdout);
      assert.equal(json.testCommand, 'npm test');
      assert.equal(json.baseline.status, 'fail');
      assert.equal(json.baseline.perTest, true, r.stderr);
      assert.deepEqual(json.baseline.failingTests, [FAILING]);
      assert.deepEqual(json.verified, [1]);
      assert.deepEqual(json.candidates.map((c: { index: number }) => c.index), [0, 1, 2]);
      const [wrong, right, breaks] = json.candidates;

      assert.equal(wrong.status, 'fail');
      assert.equal(wrong.stage, 'failing-tests');
      assert.ok(wrong.reason.startsWith('still failing: ') && wrong.reason.includes(FAILING), wrong.reason);
      assert.deepEqual(wrong.tests, { fixed: [], broke: [], passed: 0, failed: 1 });

      assert.equal(right.status, 'pass', right.failure);
      assert.equal(right.verified, true);
      assert.equal(right.stage, 'full');
      assert.deepEqual(right.tests, { fixed: json.baseline.failingTests, broke: [], passed: 5, failed: 0 });

      assert.equal(breaks.status, 'fail');
      assert.equal(breaks.stage, 'full');
      assert.ok(breaks.reason.startsWith('broke: ') && breaks.reason.includes(OUTSIDE), breaks.reason);
      assert.deepEqual(breaks.tests, { fixed: [FAILING], broke: [OUTSIDE], passed: 4, failed: 1 });

      assert.deepEqual(fingerprint(dir), before, 'the project is untouched');
      assert.deepEqual(readdirSync(tempRoot), ['candidates.json'], 'every copy is removed');
    });
  });
}
