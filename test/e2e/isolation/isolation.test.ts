// Each run's own tree (overlay, reused copies, fresh copies): what a run sees, what it changed, what is left after it (tree changes alone: test/unit/treeChanges.test.ts).
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runFix } from '../../../src/core/engine/runFix';
import type { FixRequest } from '../../../src/core/contract/fixRequest';
import { createFileProvider } from '../../../src/core/providers/fileProvider';
import { detectSandbox } from '../../../src/core/sandbox/detect';
import { fingerprint, makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';
import type { IsolationMode } from '../../../src/core/contract/choices';

const tempRoot = makeTempRoot();
before(() => {
  process.env.VERIFIED_FIX_TMPDIR = tempRoot;
});
after(() => remove(tempRoot));
const made: string[] = [];
after(() => remove(...made));

/**
 * A workspace whose test reads value.txt, writes into its tree as tools do (into dependency caches it already has
 * too), and fails if an earlier run's writes show.
 */
function treeWorkspace(): string {
  const check = [
    'test ! -e marker || { echo "an earlier run left its marker"; exit 3; }',
    'grep -q original other.txt || { echo "an earlier run changed other.txt"; exit 4; }',
    'echo x > marker; echo changed > other.txt; mkdir -p node_modules/.vite dist; echo z > dist/out.js',
    // A cache the workspace already has (vite bundles its config into node_modules/.vite-temp): the run's own.
    'mkdir -p node_modules/.vite-temp && echo y > node_modules/.vite/dep.js && echo y > node_modules/.vite-temp/config.mjs || { echo "a tool cache is not writable"; exit 5; }',
    'test "$(cat value.txt)" = good',
  ].join('\n');
  return makeWorkspace({ 'value.txt': 'old\n', 'other.txt': 'original\n', 'check.sh': check, 'test/value.test.sh': 'true\n', 'node_modules/dep/index.js': '',
    'node_modules/.vite-temp/.keep': '' }, { git: true });
}

function request(workspace: string, mode: IsolationMode, candidates: string[], overrides: Partial<FixRequest> = {}): FixRequest {
  return {
    workspace, relativePath: 'value.txt', start: 0, end: 3, testCommand: 'sh check.sh', samples: candidates.length, 
    // Generous limits: no test here waits for one, and a loaded machine must not turn a pass into a timeout.
    testTimeoutMs: 300_000, totalTimeoutMs: 600_000, parallel: 2, baselineCheck: true, confirmRuns: 2, strengthCheck: 'off',
    isolation: { linkedFolders: ['node_modules'], excludes: [], allowNetwork: false, memoryMB: 0, mode },
    provider: createFileProvider(candidates), ...overrides,
  };
}

const leftovers = () => readdirSync(tempRoot).filter((name) => name !== 'owner.json');

describe('run trees', () => {
  for (const mode of ['overlay', 'reuse', 'copy'] as const) {
    it(`${mode}: each run sees the workspace plus its candidate only, writes stay in its tree, nothing is left`, async (t) => {
      if (mode === 'overlay' && !(await detectSandbox()).mountsOverlay) return t.skip('no sandbox here can mount an overlay');
      const ws = treeWorkspace();
      made.push(ws);
      const before = fingerprint(ws);
      const result = await runFix(request(ws, mode, ['bad', 'good', 'worse', 'goods', 'bad2', 'good']));
      assert.deepEqual(result.candidates.map((c) => c.verdict.status), ['fail', 'pass', 'fail', 'fail', 'fail', 'pass'], result.candidates.map((c) => c.verdict.output).join('\n'));
      assert.ok(result.candidates.every((c) => !/earlier run/.test(c.verdict.output)), 'no run saw another run\'s writes');
      assert.deepEqual(result.verified, [1]);
      assert.deepEqual(fingerprint(ws), before, 'the workspace is byte-identical');
      assert.equal(existsSync(join(ws, 'node_modules', '.vite')), false, 'tool caches went to the run\'s tree');
      assert.deepEqual(readdirSync(join(ws, 'node_modules', '.vite-temp')), ['.keep'], 'the workspace\'s own cache is untouched');
      assert.deepEqual(leftovers(), []);
    });

    it(`${mode}: a run that plants a runner file or edits a test is an error, and the next run does not see it`, async (t) => {
      if (mode === 'overlay' && !(await detectSandbox()).mountsOverlay) return t.skip('no sandbox here can mount an overlay');
      const ws = makeWorkspace({ 'value.txt': 'old\n', 'check.sh': 'test ! -e conftest.py || exit 5\ntest "$(cat value.txt)" = plant && echo "x" > conftest.py\ntest "$(cat value.txt)" = good\n' }, { git: true });
      made.push(ws);
      const result = await runFix(request(ws, mode, ['plant', 'good', 'plant', 'good'], { parallel: 1, confirmRuns: 1 }));
      assert.deepEqual(result.candidates.map((c) => c.verdict.status), ['error', 'pass', 'error', 'pass']);
      assert.match(result.candidates[0].verdict.reason ?? '', /created files the test runner loads: conftest\.py/);
      assert.equal(existsSync(join(ws, 'conftest.py')), false);
      assert.deepEqual(leftovers(), []);
    });
  }

  it('logs which isolation it chose', async () => {
    const ws = makeWorkspace({ 'value.txt': 'old\n', 'check.sh': 'test "$(cat value.txt)" = good\n' });
    made.push(ws);
    const lines: string[] = [];
    const logger = { trace: () => undefined, info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: () => undefined };
    await runFix(request(ws, 'copy', ['good'], { logger, baselineCheck: false }));
    assert.ok(lines.some((l) => /isolation: copy: a fresh copy per run/.test(l)), lines.join('\n'));
  });

  it('runs the script behind npm test directly, with the variables npm would give it', async () => {
    // npm sets npm_execpath for every script it runs; the resolved run has npm's lifecycle variables without it.
    const check = 'test "$npm_lifecycle_event" = test && test -z "$npm_execpath" && test "$(cat value.txt)" = good';
    const ws = makeWorkspace({ 'value.txt': 'old\n', 'check.sh': `${check}\n`, 'package.json': JSON.stringify({ name: 'direct', scripts: { test: 'sh check.sh' } }) }, { git: true });
    made.push(ws);
    const lines: string[] = [];
    const logger = { trace: () => undefined, info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: () => undefined };
    const result = await runFix(request(ws, 'reuse', ['bad', 'good'], { testCommand: 'npm test', logger }));
    assert.deepEqual(result.candidates.map((c) => c.verdict.status), ['fail', 'pass'], result.candidates.map((c) => c.verdict.output).join('\n'));
    assert.ok(lines.some((l) => l === 'npm test runs its script directly: sh check.sh (node_modules/.bin on PATH)'), lines.join('\n'));
  });

  it('stops with the reason when an overlay is asked for where the sandbox cannot mount one', async () => {
    const ws = makeWorkspace({ 'value.txt': 'old\n', 'check.sh': 'true\n' });
    made.push(ws);
    const asked = request(ws, 'overlay', ['good']);
    await assert.rejects(runFix({ ...asked, isolation: { ...asked.isolation, backend: 'process-group', allowProcessGroupAsRoot: true } }), /--isolation overlay cannot work here: the process-group sandbox cannot mount one/);
    assert.deepEqual(leftovers(), []);
  });
});
